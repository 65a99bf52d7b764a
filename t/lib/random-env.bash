# shellcheck shell=bash
# Isolated git environment for the random-history tests:
# random_env <dir> makes <dir>/home the HOME, with a small gitconfig, and
# keeps the system config and any inherited repository out.
random_env() {
	export HOME=$1/home GIT_CONFIG_NOSYSTEM=1
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
		GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CONFIG_GLOBAL \
		GIT_CONFIG_PARAMETERS GIT_CEILING_DIRECTORIES XDG_CONFIG_HOME
	mkdir -p "$HOME"
	cat >"$HOME/.gitconfig" <<'CFG'
[user]
	name = Random History
	email = random@example.com
[init]
	defaultBranch = main
[advice]
	detachedHead = false
[gc]
	auto = 0
CFG
}
