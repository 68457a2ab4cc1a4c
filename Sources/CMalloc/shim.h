// glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out; the
// command uses it to share one malloc arena among its threads (see
// ChangesetMain.limitMallocArenas).
#include <malloc.h>
