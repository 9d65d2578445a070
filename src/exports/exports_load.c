/*
 * Loading an export table from files: the exports file, then the
 * "*.exports" files of exports.d by name, then opening each export root.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"

/* ---- files ---- */

static char *
read_file(struct parser *p, const char *file)
{
	struct stat st;
	char *buf;
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		parser_report(p, "%s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_EXPORTS_FILE) {
		parser_report(p, "%s: %s", file, S_ISREG(st.st_mode) ? "file too large" : "not a regular file");
		close(fd);
		return NULL;
	}
	buf = xcalloc((size_t)st.st_size + 1, 1);
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		parser_report(p, "%s: short read", file);
		free(buf);
		return NULL;
	}
	if (memchr(buf, '\0', (size_t)n)) {
		parser_report(p, "%s: contains a NUL byte", file);
		free(buf);
		return NULL;
	}
	return buf;
}

static void
parse_file_into(struct parser *p, const char *file, struct export_table *t)
{
	const char *outer = p->name;
	char *text = read_file(p, file);

	if (text == NULL)
		return;
	/* Messages name this file; file outlives the parse, not the caller's loop. */
	p->name = file;
	exports_parse_into(p, text, t);
	p->name = outer;
	free(text);
}

/* nfs-utils reads only "*.exports" there and skips hidden files (editor leftovers). */
static int
is_exports_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 8 && strcmp(d->d_name + len - 8, ".exports") == 0;
}

/* Byte order, not the locale's: the order must not change with LANG. */
static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The exports.d directory that sits next to file. */
static char *
exports_dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	size_t n = slash ? (size_t)(slash - file) : 0;
	char *dir = xcalloc(n + sizeof("/exports.d"), 1);

	if (slash)
		memcpy(dir, file, n);
	strcpy(dir + n, slash ? "/exports.d" : "exports.d");
	return dir;
}

static void
parse_dir_into(struct parser *p, const char *file, struct export_table *t)
{
	char *dir = exports_dir_of(file);
	struct dirent **names;
	int n = scandir(dir, &names, is_exports_name, by_name);

	if (n < 0) {
		if (errno != ENOENT)
			parser_report(p, "%s: %s", dir, strerror(errno));
		free(dir);
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = xcalloc(len, 1);

		snprintf(path, len, "%s/%s", dir, names[i]->d_name);
		parse_file_into(p, path, t);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

void
exports_open_roots(struct parser *p, struct export_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct export *e = &t->exports[i];
		struct stat st;

		/* Readable, not O_PATH: open_by_handle_at refuses an O_PATH mount fd. */
		e->root.rootfd = open(e->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (e->root.rootfd < 0 && errno == EACCES)
			e->root.rootfd = open(e->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (e->root.rootfd < 0 || fstat(e->root.rootfd, &st) < 0) {
			if (e->line == 0)
				parser_report(p, "%s: cannot open export %s: %s", e->file, e->path,
				    strerror(errno));
			else
				parser_report(p, "%s:%u: cannot open export %s: %s", e->file, e->line,
				    e->path, strerror(errno));
			continue;
		}
		e->root.dev = st.st_dev;
		e->root.ino = st.st_ino;
	}
}

struct export_table *
exports_load(const char *file, exports_err_fn err, void *arg)
{
	struct parser p = { .name = file, .err = err, .arg = arg };
	struct export_table *t = exports_table_new();

	/* Every file is parsed even after errors, so one run reports them all. */
	parse_file_into(&p, file, t);
	parse_dir_into(&p, file, t);
	if (p.nerrors == 0)
		exports_open_roots(&p, t);
	if (p.nerrors) {
		exports_free(t);
		return NULL;
	}
	t->refs = 1;
	return t;
}
