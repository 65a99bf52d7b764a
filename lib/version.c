// SPDX-License-Identifier: GPL-2.0-only
#include "version.h"

/* The Makefile passes -DVERSION='"<version>"' from GIT-VERSION-FILE. */
const char git_clean_diffstat_version[] = VERSION;
