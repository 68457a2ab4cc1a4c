#ifndef CHANGESET_CZLIB_SHIM_H
#define CHANGESET_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and sizeof(z_stream)), which Swift cannot call.
static inline int changeset_inflate_init_gzip(z_streamp stream) {
    // 15 + 16: the largest window, and a gzip header and trailer (not zlib's, not raw deflate).
    return inflateInit2(stream, 15 + 16);
}

// deflateInit2 is a macro for the same reason.
static inline int changeset_deflate_init_gzip(z_streamp stream) {
    // 15 + 16 as above: a gzip header (no name, no time, so the same input gives
    // the same bytes) and trailer; zlib's default level and memory, as gzip -6.
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
