// The engine's types (ListSection, SectionedChangeset, ItemPath, Differ) are
// part of this library's API: a user of ChangesetKit gets them with one import.
// (The fuzz targets compile both modules' sources as one module, where there
// is nothing to import.)
#if canImport(ChangesetEngine)
@_exported import ChangesetEngine
#endif
