// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for /proc/kit-procfs/ (procfs-demo), in either form.
 *
 *	procfs-demo --form legacy|converted	(as root, module just loaded)
 *
 * value and message behave as in debugfs-demo, and the same in both forms;
 * table is a seq_file of 320 lines.  Where the iter path changes what the
 * VFS does (splice, RWF_NOWAIT), a test asserts each form's own outcome.
 * procfs has no .proc_write_iter, so writes are the same in both forms:
 * one .proc_write call per writev() segment, no RWF_NOWAIT, no splice.
 *
 * Each test runs in its own process, but the state lives in the module:
 * tests start by writing the defaults back.  The last test removes the
 * module with files open, and loads it again.
 */
#define ATTR_DIR	"/proc/kit-procfs"
#define KIT_TEST_HOOKS	/* the kit's drivers have them: see attr_test.h */
#include "attr_test.h"

#include <liburing.h>
#include <stdint.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define MODNAME		"kit_procfs"
#define DEFAULT_MESSAGE	"Hello from kit_procfs\n"
#define TABLE_ROWS	320
#define TABLE_SIZE	(TABLE_ROWS * 27)

/* --- procfs-demo's own helpers --- */

/* procfs-demo has no trigger: write the defaults back. */
static void reset(void)
{
	put("value", "42");
	set_message(DEFAULT_MESSAGE, strlen(DEFAULT_MESSAGE));
}

/* What table holds: the lines table_show() prints, rows 0 to 319. */
static const char *table_content(void)
{
	static char t[TABLE_SIZE + 1];
	unsigned int r;
	char *p = t;

	for (r = 0; r < TABLE_ROWS; r++)
		p += sprintf(p, "%4u %10u 0x%08x\n", r, r * r, r * r);
	if (p != t + TABLE_SIZE)
		kit_fail("the table is %zd bytes, not %d", p - t, TABLE_SIZE);
	return t;
}

/* --- the files --- */

KIT_TEST(layout)
{
	static const struct { const char *name; mode_t mode; } files[] = {
		{ "value", 0644 }, { "message", 0644 }, { "table", 0444 },
#ifdef KIT_TEST_HOOKS
		{ "test-hooks", 0200 },
#endif /* KIT_TEST_HOOKS */
	};
	char path[128];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), ATTR_DIR "/%s", files[i].name);
		KIT_ASSERT_OK(stat(path, &st));
		KIT_ASSERT(S_ISREG(st.st_mode));
		KIT_ASSERT_EQ(st.st_mode & 07777, files[i].mode);
		KIT_ASSERT_EQ(st.st_size, 0);
	}
}

KIT_TEST(defaults)
{
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
	expect_content("message", DEFAULT_MESSAGE, strlen(DEFAULT_MESSAGE));
}

/* --- reading: small reads, every offset, lseek --- */

KIT_TEST(value_reads_rebuild_content)
{
	reset();
	attr_value_reads();
}

KIT_TEST(message_reads_rebuild_content)
{
	reset();
	attr_message_reads(DEFAULT_MESSAGE);
}

KIT_TEST(lseek)
{
	reset();
	attr_lseek();
}

/* --- value: what a write takes --- */

KIT_TEST(value_write_table)
{
	reset();
	attr_value_write_table();
}

KIT_TEST(value_write_64k_digits)
{
	reset();
	attr_value_write_64k_digits();
}

KIT_TEST(value_write_ignores_position)
{
	reset();
	attr_value_write_ignores_position();
}

/* --- message: a small file of 256 bytes --- */

KIT_TEST(message_positions)
{
	reset();
	attr_message_positions();
}

/* --- table: a seq_file longer than two pages --- */

KIT_TEST_TIMEOUT(table_reads_rebuild_content, 600)
{
	check_reads("table", table_content(), TABLE_SIZE);
}

/*
 * seq_file formats whole lines into a buffer of a page, and a read returns
 * at most what one buffer holds: several calls even with a big buffer.
 */
KIT_TEST(table_read_calls)
{
	int fd = open_file("table", O_RDONLY);
	size_t got = 0;
	int calls = 0;
	ssize_t n;

	while ((n = KIT_ASSERT_OK(read(fd, buf + got, 65536))) > 0) {
		KIT_ASSERT(n <= 4096 && n % 27 == 0);	/* whole lines */
		got += n;
		calls++;
	}
	close(fd);
	KIT_ASSERT_EQ(got, TABLE_SIZE);
	KIT_ASSERT(calls >= 3);
	KIT_ASSERT(!memcmp(buf, table_content(), TABLE_SIZE));
}

/* seq_lseek(): SEEK_SET and SEEK_CUR, anywhere from 0 on; no SEEK_END. */
KIT_TEST(table_lseek)
{
	const char *t = table_content();
	int fd = open_file("table", O_RDONLY);

	KIT_ASSERT_EQ(lseek(fd, 5000, SEEK_SET), 5000);
	KIT_ASSERT_EQ(read(fd, buf, 100), 100);
	KIT_ASSERT(!memcmp(buf, t + 5000, 100));
	KIT_ASSERT_EQ(lseek(fd, -3000, SEEK_CUR), 2100);
	KIT_ASSERT_EQ(read(fd, buf, 500), 500);
	KIT_ASSERT(!memcmp(buf, t + 2100, 500));
	KIT_ASSERT_EQ(lseek(fd, 27, SEEK_SET), 27);
	KIT_ASSERT_EQ(read(fd, buf, 27), 27);
	KIT_ASSERT(!memcmp(buf, t + 27, 27));
	KIT_ASSERT_ERRNO(lseek(fd, 0, SEEK_END), EINVAL);
	KIT_ASSERT_ERRNO(lseek(fd, -1, SEEK_SET), EINVAL);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 54);	/* unchanged */
	KIT_ASSERT_EQ(lseek(fd, TABLE_SIZE + 10, SEEK_SET), TABLE_SIZE + 10);
	KIT_ASSERT_EQ(read(fd, buf, sizeof(buf)), 0);
	close(fd);
}

/* --- bad user pointers: EFAULT, nothing changes --- */

KIT_TEST(efault)
{
	int fd;

	reset();
	attr_efault();

	fd = open_file("table", O_RDONLY);
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), 10), EFAULT);
	KIT_ASSERT_EQ(read(fd, buf, 27), 27);	/* from the start still */
	KIT_ASSERT(!memcmp(buf, table_content(), 27));
	close(fd);
}

/*
 * readv() and writev(): with .proc_read the VFS calls it once per segment,
 * with .proc_read_iter once; the result is the same here.  Writes go to
 * .proc_write in both forms (there is no .proc_write_iter): "1", "2" and
 * "\n" are three values, the last is rejected, and writev() reports the 2
 * bytes before it.
 */
KIT_TEST(readv_writev)
{
	char a[1], b[1], c[1];
	struct iovec in[3] = { { a, 1 }, { b, 1 }, { c, 1 } };
	struct iovec out[3] = {
		{ "1", 1 }, { "2", 1 }, { "\n", 1 },
	};
	struct iovec mout[3] = {
		{ "ab", 2 }, { "cd", 2 }, { "ef", 2 },
	};
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_EQ(readv(fd, in, 3), 3);
	KIT_ASSERT(a[0] == '4' && b[0] == '2' && c[0] == '\n');
	KIT_ASSERT_EQ(writev(fd, out, 3), 2);
	KIT_ASSERT_EQ(get_value(), 2);
	close(fd);

	fd = open_file("message", O_WRONLY | O_TRUNC);
	KIT_ASSERT_EQ(writev(fd, mout, 3), 6);
	close(fd);
	expect_content("message", "abcdef", 6);
}

/* --- concurrency: readers never see a torn value or message --- */

KIT_TEST_TIMEOUT(concurrent_readers_writers, 300)
{
	reset();
	attr_concurrent_readers_writers();
}

/* --- what the iter path gains: splice, RWF_NOWAIT, io_uring --- */

/* Everything name holds, read through a pipe with splice(). */
static void splice_all(const char *name, const char *want, size_t len)
{
	size_t got = 0;
	ssize_t n, m;
	int p[2], fd;

	KIT_ASSERT_OK(pipe(p));
	fd = open_file(name, O_RDONLY);
	while ((n = KIT_ASSERT_OK(splice(fd, NULL, p[1], NULL, 4096, 0)))) {
		KIT_ASSERT(got + n <= len);
		m = KIT_ASSERT_OK(read(p[0], buf + got, n));
		KIT_ASSERT_EQ(m, n);
		got += n;
	}
	KIT_ASSERT_EQ(got, len);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), (long long)len);
	if (memcmp(buf, want, len))
		kit_fail("%s: spliced content differs", name);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/*
 * A .proc_read_iter file gets .splice_read from procfs (copy_splice_read,
 * generic_file_splice_read before 6.5), so splice() and sendfile() work
 * in the iterator forms and fail with EINVAL in the legacy one.  The
 * wrapped form is legacy but for table, whose seq_read became
 * seq_read_iter: its value and message are read by the wrapper, which
 * refuses the kernel memory that splice reads into (EINVAL).  Writing with
 * splice needs .write_iter, which procfs never has: EINVAL in all forms.
 */
KIT_TEST(splice)
{
	static const char *const names[] = { "value", "message", "table" };
	const char *const want[] = { "42\n", DEFAULT_MESSAGE, table_content() };
	const size_t len[] = { 3, strlen(DEFAULT_MESSAGE), TABLE_SIZE };
	off_t off = 27 * 100;
	int p[2], fd, mfd;
	size_t i;

	reset();
	mfd = KIT_ASSERT_OK(memfd_create("sendfile", 0));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (kit_form_iter() || (i == 2 && !kit_form_legacy())) {
			splice_all(names[i], want[i], len[i]);
			continue;
		}
		KIT_ASSERT_OK(pipe(p));
		fd = open_file(names[i], O_RDONLY);
		KIT_ASSERT_ERRNO(splice(fd, NULL, p[1], NULL, 64, 0), EINVAL);
		KIT_ASSERT_ERRNO(sendfile(mfd, fd, NULL, 64), EINVAL);
		close(fd);
		close(p[0]);
		close(p[1]);
	}
	if (!kit_form_legacy()) {
		fd = open_file("table", O_RDONLY);
		KIT_ASSERT_EQ(sendfile(mfd, fd, &off, 54), 54);
		KIT_ASSERT_EQ(pread(mfd, buf, sizeof(buf), 0), 54);
		KIT_ASSERT(!memcmp(buf, table_content() + 27 * 100, 54));
		close(fd);
	}
	KIT_ASSERT_OK(pipe(p));
	fd = open_file("value", O_WRONLY);
	KIT_ASSERT_EQ(write(p[1], "7\n", 2), 2);
	KIT_ASSERT_ERRNO(splice(p[0], NULL, fd, NULL, 2, 0), EINVAL);
	close(fd);
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
}

/*
 * preadv2(RWF_NOWAIT) needs FMODE_NOWAIT, which the converted form sets
 * for value and message (their reads honour IOCB_NOWAIT), not for table
 * (seq_read_iter() may sleep on its mutex).  pwritev2(RWF_NOWAIT) fails in
 * both forms: .proc_write can't be told not to block.
 */
KIT_TEST(rwf_nowait)
{
	char v[64];
	struct iovec in = { v, sizeof(v) };
	struct iovec out = { "9\n", 2 };
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	if (kit_form_converted()) {
		KIT_ASSERT_EQ(preadv2(fd, &in, 1, 0, RWF_NOWAIT), 3);
		KIT_ASSERT(!memcmp(v, "42\n", 3));
	} else {
		KIT_ASSERT_ERRNO(preadv2(fd, &in, 1, 0, RWF_NOWAIT), EOPNOTSUPP);
	}
	KIT_ASSERT_ERRNO(pwritev2(fd, &out, 1, 0, RWF_NOWAIT), EOPNOTSUPP);
	close(fd);
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);

	fd = open_file("message", O_RDONLY);
	if (kit_form_converted())
		KIT_ASSERT_EQ(preadv2(fd, &in, 1, 6, RWF_NOWAIT),
			      (long long)strlen(DEFAULT_MESSAGE) - 6);
	else
		KIT_ASSERT_ERRNO(preadv2(fd, &in, 1, 6, RWF_NOWAIT), EOPNOTSUPP);
	close(fd);

	fd = open_file("table", O_RDONLY);
	KIT_ASSERT_ERRNO(preadv2(fd, &in, 1, 0, RWF_NOWAIT), EOPNOTSUPP);
	close(fd);
}

/* io_uring reads both: in an io-wq worker (legacy) or inline (converted). */
KIT_TEST(io_uring_read)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char v[64];
	int fd, ret;

	reset();
	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
	fd = open_file("table", O_RDONLY);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, v, sizeof(v), 27 * 300);
	KIT_ASSERT_EQ(io_uring_submit(&ring), 1);
	KIT_ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	KIT_ASSERT_EQ(cqe->res, sizeof(v));
	KIT_ASSERT(!memcmp(v, table_content() + 27 * 300, sizeof(v)));
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	close(fd);
}

#ifdef KIT_TEST_HOOKS
/* --- a contended lock: the "hold" test hook holds it --- */

KIT_TEST(contended_reads)
{
	reset();
	attr_contended_reads();
}
#endif /* KIT_TEST_HOOKS */

/* --- removal while files are open (the last test) --- */

/*
 * proc_ops has no .owner: an open file doesn't pin the module, and rmmod
 * succeeds.  proc_remove() in the module's exit waits for calls in flight
 * and releases the open files (seq_release() for table); calls on them
 * afterwards fail with EIO (lseek with EINVAL) without reaching the
 * module, and close() works.  Then the module is loaded again, for
 * kit-run to remove.
 */
KIT_TEST(rmmod_while_open)
{
	int vfd, mfd, tfd, ko;

	reset();
	vfd = open_file("value", O_RDWR);
	mfd = open_file("message", O_RDWR);
	tfd = open_file("table", O_RDONLY);
	KIT_ASSERT_EQ(read(tfd, buf, 100), 100);	/* a seq_file in use */

	KIT_ASSERT_OK(syscall(SYS_delete_module, MODNAME, O_NONBLOCK));
	KIT_ASSERT_ERRNO(access(ATTR_DIR "/value", F_OK), ENOENT);
	KIT_ASSERT_ERRNO(pread(vfd, buf, sizeof(buf), 0), EIO);
	KIT_ASSERT_ERRNO(write(vfd, "5", 1), EIO);
	KIT_ASSERT_ERRNO(read(mfd, buf, sizeof(buf)), EIO);
	KIT_ASSERT_ERRNO(write(mfd, "x", 1), EIO);
	KIT_ASSERT_ERRNO(read(tfd, buf, sizeof(buf)), EIO);
	KIT_ASSERT_ERRNO(lseek(vfd, 0, SEEK_SET), EINVAL);
	KIT_ASSERT_ERRNO(lseek(tfd, 0, SEEK_SET), EINVAL);
	KIT_ASSERT_OK(close(vfd));
	KIT_ASSERT_OK(close(mfd));
	KIT_ASSERT_OK(close(tfd));

	ko = KIT_ASSERT_OK(open(kit_module_file(MODNAME), O_RDONLY));
	KIT_ASSERT_OK(syscall(SYS_finit_module, ko, "", 0));
	close(ko);
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
}

int main(int argc, char **argv)
{
	return kit_test_main(argc, argv);
}
