#ifndef CHANGESET_CYAJL_SHIM_H
#define CHANGESET_CYAJL_SHIM_H

#include <yajl/yajl_parse.h>

// yajl_config is variadic, which Swift cannot call: one fixed-arity wrapper per use.
static inline int changeset_yajl_set_option(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

#endif
