/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VERSION_H
#define VERSION_H

/*
 * The version of this build, as --version prints it: what GIT-VERSION-GEN
 * made of git describe or of a release tarball's version file, the same
 * string that names the tarball and ends the man page.  Only version.o is
 * compiled with it, so a new version rebuilds one file.
 */
extern const char git_clean_diffstat_version[];

#endif
