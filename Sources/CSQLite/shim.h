#ifndef CHANGESET_CSQLITE_SHIM_H
#define CHANGESET_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
