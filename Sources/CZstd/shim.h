#ifndef CHANGESET_CZSTD_SHIM_H
#define CHANGESET_CZSTD_SHIM_H

// Only the stable API: ZSTD_STATIC_LINKING_ONLY stays undefined.
#include <zstd.h>
#include <zstd_errors.h>

#endif
