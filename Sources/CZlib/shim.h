#ifndef CHANGESET_CZLIB_SHIM_H
#define CHANGESET_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and sizeof(z_stream)), which Swift cannot call.
static inline int changeset_inflate_init_gzip(z_streamp stream) {
    // 15 + 16: the largest window, and a gzip header and trailer (not zlib's, not raw deflate).
    return inflateInit2(stream, 15 + 16);
}

#endif
