/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef GITMODULES_H
#define GITMODULES_H

#include "strvec.h"

/*
 * The merged tree's .gitmodules, for git diff.
 *
 * git diff leaves out the changes of a submodule whose ignore setting
 * is "all".  It finds the submodule's name by its path in the work
 * tree's .gitmodules, and its setting in the configuration
 * (submodule.<name>.ignore), else in that .gitmodules, else in
 * diff.ignoreSubmodules.  The procedure diffs in a checkout of the
 * merge: its .gitmodules is the merged tree's.
 *
 * gitmodules_config() adds to out the environment (GIT_CONFIG_COUNT
 * entries, after the user's own) that gives every submodule the work
 * tree's .gitmodules names the setting the merged tree's gives its
 * path.  tree is the merged tree, env the environment that reads it
 * (the quarantine's), cdup the way from the current directory to the
 * top of the work tree ("", "../", ...).  It costs one git when the
 * work tree has a .gitmodules, four when that differs from the merged
 * tree's, none otherwise.  A submodule that only the merged tree's
 * .gitmodules names is beyond it: git diff never looks its path up.
 */
void gitmodules_config(struct strvec *out, const char *const *env,
		       const char *tree, const char *cdup);

#endif
