// libhyphen (Debian libhyphen-dev), which hyphenates with LibreOffice's pattern dictionaries.
#include <hyphen.h>
