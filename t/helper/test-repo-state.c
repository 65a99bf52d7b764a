// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state of a repository, for t/lib/tool.bash's repo_state: equal
 * before and after a run means the run left the repository untouched.
 *
 *	test-repo-state <dir>
 *	test-repo-state --tree <dir>
 *
 * Every name in the repository <dir> is in, that is in its work tree and
 * in its git directory wherever that is (git rev-parse says where), loose
 * objects included, one a line sorted by name: its type, its permission
 * bits, then the SHA-256 of a file's bytes or a symlink's target.
 * Outside a repository: one line that says so.  One process and one git
 * instead of the shell's find, sha256sum and sort: every run_tool and
 * expect_unchanged of the suite runs this.
 *
 * With --tree, the caller knows where the repository is: <dir> is the
 * top of a work tree whose git directory is <dir>/.git; its names are
 * listed as above (as one root, "in <dir>"), no git asked.  The oracle
 * keys its copies with it (t/lib/procedure.bash).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "fatal: test-repo-state: %s: %s\n", what, strerror(errno));
	exit(128);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("realloc");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

/* SHA-256 (FIPS 180-4). */
struct sha256 {
	uint32_t h[8];
	unsigned char buf[64];
	size_t used;
	uint64_t len;
};

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->used = 0;
	c->len = 0;
}

static void sha256_block(struct sha256 *c, const unsigned char *p)
{
	uint32_t w[64], a, b, d, e, f, g, h, cc, t1, t2;
	size_t i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 7] + (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = c->h[0]; b = c->h[1]; cc = c->h[2]; d = c->h[3];
	e = c->h[4]; f = c->h[5]; g = c->h[6]; h = c->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
		     k256[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
		h = g; g = f; f = e; e = d + t1;
		d = cc; cc = b; b = a; a = t1 + t2;
	}
	c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d;
	c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

static void sha256_update(struct sha256 *c, const unsigned char *p, size_t n)
{
	c->len += n;
	if (c->used) {
		size_t take = 64 - c->used < n ? 64 - c->used : n;

		memcpy(c->buf + c->used, p, take);
		c->used += take;
		p += take;
		n -= take;
		if (c->used < 64)
			return;
		sha256_block(c, c->buf);
		c->used = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		sha256_block(c, p);
	memcpy(c->buf, p, n);
	c->used = n;
}

static void sha256_hex(struct sha256 *c, char hex[65])
{
	uint64_t bits = c->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (c->used < 56 ? 56 : 120) - c->used;
	size_t i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, pad, padlen + 8);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", (unsigned int)c->h[i]);
}

/* The SHA-256 of the file's bytes in hex, or "unreadable". */
static void file_hash(const char *path, char hex[65])
{
	static const char unreadable[] = "unreadable";
	static unsigned char buf[65536];
	struct sha256 c;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		memcpy(hex, unreadable, sizeof(unreadable));
		return;
	}
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&c, buf, (size_t)n);
	if (n < 0)
		memcpy(hex, unreadable, sizeof(unreadable));
	else
		sha256_hex(&c, hex);
	close(fd);
}

/* The names under a root, as find prints them: ".", "./a", "./a/b". */
static char **names;
static size_t nr_names, alloc_names;

static void add_name(const char *name)
{
	if (nr_names == alloc_names) {
		alloc_names = alloc_names ? 2 * alloc_names : 1024;
		names = xrealloc(names, alloc_names * sizeof(*names));
	}
	names[nr_names++] = xstrdup(name);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t len = strlen(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xrealloc(NULL, len + strlen(de->d_name) + 2);
		sprintf(path, "%s/%s", dir, de->d_name);
		add_name(path);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			walk(path);
		free(path);
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char type_of(mode_t mode)
{
	if (S_ISREG(mode))
		return 'f';
	if (S_ISDIR(mode))
		return 'd';
	if (S_ISLNK(mode))
		return 'l';
	if (S_ISFIFO(mode))
		return 'p';
	if (S_ISSOCK(mode))
		return 's';
	return '?';
}

static void list_root(const char *root)
{
	size_t i;

	printf("in %s\n", root);
	if (chdir(root))
		die(root);
	nr_names = 0;
	add_name(".");
	walk(".");
	qsort(names, nr_names, sizeof(*names), by_name);
	for (i = 0; i < nr_names; i++) {
		struct stat st;
		char extra[4096 + 1];

		if (lstat(names[i], &st)) {
			printf("gone %s\n", names[i]);
		} else {
			extra[0] = '\0';
			if (S_ISREG(st.st_mode)) {
				file_hash(names[i], extra);
			} else if (S_ISLNK(st.st_mode)) {
				ssize_t n = readlink(names[i], extra, sizeof(extra) - 1);

				extra[n < 0 ? 0 : n] = '\0';
			}
			printf("%c %o %s%s%s\n", type_of(st.st_mode),
			       (unsigned int)(st.st_mode & 07777), names[i],
			       extra[0] ? " " : "", extra);
		}
		free(names[i]);
	}
}

/*
 * git_run <argv> <lenp> <exit_code>: all that git, run with <argv>,
 * prints (its length in *lenp, a NUL after it), and its exit status in
 * *exit_code, -1 when a signal killed it.
 */
static char *git_run(const char *const *argv, size_t *lenp, int *exit_code)
{
	int fd[2], status;
	pid_t pid;
	char *out = NULL;
	size_t len = 0, alloc = 0;
	ssize_t n;

	if (pipe(fd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(fd[1], 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		close(fd[0]);
		close(fd[1]);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		if (alloc - len < 4096)
			out = xrealloc(out, alloc = alloc ? 2 * alloc : 8192);
		n = read(fd[0], out + len, alloc - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	if (!out)
		out = xrealloc(NULL, 1);
	out[len] = '\0';
	*lenp = len;
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return out;
}

/*
 * git_out <argv>: what git, run with <argv>, prints, less its trailing
 * newlines (as the shell's $(...) has it), or NULL when it fails.
 */
static char *git_out(const char *const *argv)
{
	size_t len;
	int code;
	char *out = git_run(argv, &len, &code);

	if (code) {
		free(out);
		return NULL;
	}
	while (len && out[len - 1] == '\n')
		len--;
	out[len] = '\0';
	return out;
}

/* the number of newlines in the <len> bytes of <s> */
static size_t count_newlines(const char *s, size_t len)
{
	size_t nr = 0;

	while (len--)
		nr += *s++ == '\n';
	return nr;
}

/*
 * find_roots: in *common the git directory the repository's refs and
 * objects are in (NULL outside a repository), in *top the top of its
 * work tree (NULL when it has none here: a bare repository, a git
 * directory).  One git asks for both, and its two lines say them when
 * neither path has a newline in it; else (or when the toplevel is not
 * there to be had, and the output is not just the one line) a git for
 * each, as before: a test-repo-state runs before and after every run of
 * the tool, and each git costs some 10 ms of CPU.
 */
static void find_roots(char **common, char **top)
{
	static const char *const both_argv[] = {
		"git", "rev-parse", "--path-format=absolute",
		"--git-common-dir", "--show-toplevel", NULL
	};
	static const char *const common_argv[] = {
		"git", "rev-parse", "--path-format=absolute", "--git-common-dir", NULL
	};
	static const char *const top_argv[] = {
		"git", "rev-parse", "--show-toplevel", NULL
	};
	size_t len;
	int code;
	char *out = git_run(both_argv, &len, &code), *nl;

	*common = *top = NULL;
	if (code && !len) {
		/* no repository: --git-common-dir failed first */
		free(out);
		return;
	}
	nl = len ? strchr(out, '\n') : NULL;
	if (nl && out[len - 1] == '\n' && *out == '/') {
		size_t lines = count_newlines(out, len);

		if (!code && lines == 2) {
			*nl = '\0';
			out[len - 1] = '\0';
			*common = xstrdup(out);
			*top = *(nl + 1) ? xstrdup(nl + 1) : NULL;
			free(out);
			return;
		}
		if (code > 0 && lines == 1) {
			/* --show-toplevel failed: no work tree here */
			out[len - 1] = '\0';
			*common = out;
			return;
		}
	}
	free(out);
	/* one at a time: either may have a newline in it */
	*common = git_out(common_argv);
	if (!*common)
		return;
	*top = git_out(top_argv);
	if (*top && !**top) {
		free(*top);
		*top = NULL;
	}
}

int main(int argc, char **argv)
{
	char *common, *top;
	size_t toplen;

	if (argc == 3 && !strcmp(argv[1], "--tree")) {
		list_root(argv[2]);
		free(names);
		return fflush(stdout) || ferror(stdout) ? 1 : 0;
	}
	if (argc != 2) {
		fputs("usage: test-repo-state [--tree] <dir>\n", stderr);
		return 129;
	}
	if (chdir(argv[1]))
		die(argv[1]);
	find_roots(&common, &top);
	if (!common) {
		puts("no repository");
		return 0;
	}
	/* the work tree, and the git directory when it is outside it */
	toplen = top ? strlen(top) : 0;
	if (!top || strncmp(common, top, toplen) ||
	    (common[toplen] != '/' && common[toplen] != '\0'))
		list_root(common);
	if (top)
		list_root(top);
	free(common);
	free(top);
	free(names);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
