/* The running library's version (include/socmon/version.h): compiled from
 * the same header, so it is the version of the headers the library was built
 * with, whatever headers its caller was compiled against. */
#include "socmon/version.h"

const char *socmon_version(void)
{
    return SOCMON_VERSION;
}

int socmon_version_number(void)
{
    return SOCMON_VERSION_NUMBER;
}
