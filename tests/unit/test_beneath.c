/*
 * openat_beneath_walk(), the fallback for kernels without openat2, must
 * refuse exactly what openat2's RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_XDEV refuses, and open what it opens.  Both are run on the
 * same scratch tree and compared.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/beneath.h"
#include "unit.h"

static int root;

static int
opens(int (*fn)(int, const char *, int), const char *path)
{
	int fd = fn(root, path, O_PATH | O_DIRECTORY);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Does the walk open path? And openat2 too, where the kernel has it? */
static void
check_path(const char *path, int want)
{
	int walk = opens(openat_beneath_walk, path);
	int fd;

	if (walk != want)
		fprintf(stderr, "walk: '%s' %s\n", path, walk ? "opened" : "refused");
	CHECK(walk == want);
	fd = openat_beneath(root, path, O_PATH | O_DIRECTORY);
	if (fd >= 0)
		close(fd);
	CHECK((fd >= 0) == want);
}

int
main(void)
{
	char tmpl[] = "/tmp/test_beneath.XXXXXX";
	char cmd[128];
	int fd;

	if (mkdtemp(tmpl) == NULL)
		return 1;
	if (chdir(tmpl) < 0 || mkdir("root", 0755) < 0 || mkdir("root/a", 0755) < 0 ||
	    mkdir("root/a/b", 0755) < 0 || mkdir("outside", 0755) < 0 ||
	    symlink("../outside", "root/up") < 0 || symlink("a", "root/link") < 0 ||
	    symlink("/tmp", "root/abs") < 0)
		return 1;
	fd = open("root/a/file", O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	root = open("root", O_PATH | O_DIRECTORY);
	if (root < 0)
		return 1;

	check_path("a", 1);
	check_path("a/b", 1);
	check_path("a//b/", 1);
	check_path("./a/./b", 1);
	/* ".." is refused by the walk even where openat2 would stay beneath */
	CHECK(!opens(openat_beneath_walk, "a/b/.."));
	check_path("..", 0);
	check_path("../outside", 0);
	check_path("up", 0);            /* symlinks never followed */
	check_path("link", 0);
	check_path("link/b", 0);
	check_path("abs", 0);
	check_path("a/file", 0);        /* not a directory */
	check_path("missing", 0);
	check_path("/etc", 0);

	/* regular files open too, when asked without O_DIRECTORY */
	fd = openat_beneath_walk(root, "a/file", O_RDONLY);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	errno = 0;
	CHECK(openat_beneath_walk(root, "link", O_RDONLY) < 0);

	close(root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpl);
	return unit_done("test_beneath");
}
