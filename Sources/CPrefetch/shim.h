// A cache prefetch hint, which Swift does not expose: the readers ask for a
// key's hash-table slot as soon as the id is read, so the slot is in cache by
// the time the record ends and its key is inserted (see KeyIndex.prefetch).
// A hint only: it never faults and changes no result.
static inline void changeset_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
