// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for /sys/kernel/debug/kit-debugfs/ (debugfs-demo), in either form.
 *
 *	debugfs-demo --form legacy|converted	(as root, module just loaded)
 *
 * value, message, stats and trigger behave the same in both forms: the
 * file position rules of simple_read_from_buffer()/simple_write_to_buffer()
 * and kstrtou32_from_user() are kept by their iterator versions.  Where the
 * VFS treats .read/.write and .read_iter/.write_iter differently (readv and
 * writev, RWF_NOWAIT, splice), a test asserts each form's own outcome, and
 * stats shows how many calls reached the driver.
 *
 * Each test runs in its own process, but the state lives in the module:
 * tests start with "reset" written to trigger.
 */
#define ATTR_DIR	"/sys/kernel/debug/kit-debugfs"
#define KIT_TEST_HOOKS	/* the kit's drivers have them: see attr_test.h */
#include "attr_test.h"

#include <liburing.h>
#include <stdint.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define MODNAME		"kit_debugfs"
#define DEFAULT_MESSAGE	"Hello from kit_debugfs\n"

/* --- debugfs-demo's own helpers --- */

static void reset(void)
{
	put("trigger", "reset");
}

struct stats {
	long reads, writes, rejected;
};

static struct stats get_stats(void)
{
	struct stats s;
	char t[256];

	get("stats", t, sizeof(t));
	if (sscanf(t, "reads %ld\nwrites %ld\nrejected %ld\n",
		   &s.reads, &s.writes, &s.rejected) != 3)
		kit_fail("stats reads \"%s\"", esc(t, strlen(t)));
	return s;
}

#define ASSERT_STATS(r, w, x)						\
	do {								\
		struct stats s_ = get_stats();				\
		KIT_ASSERT_EQ(s_.reads, r);				\
		KIT_ASSERT_EQ(s_.writes, w);				\
		KIT_ASSERT_EQ(s_.rejected, x);				\
	} while (0)

/* --- the files --- */

KIT_TEST(layout)
{
	static const struct { const char *name; mode_t mode; } files[] = {
		{ "value", 0600 }, { "message", 0600 },
		{ "stats", 0400 }, { "trigger", 0200 },
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

KIT_TEST(defaults_after_reset)
{
	put("value", "7");
	set_message("x", 1);
	reset();
	expect_content("stats", "reads 0\nwrites 0\nrejected 0\n", 28);
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

KIT_TEST(stats_reads_rebuild_content)
{
	const char *want = "reads 0\nwrites 1\nrejected 0\n";

	reset();
	put("value", "5");
	check_reads("stats", want, strlen(want));	/* not counted */
	expect_content("stats", want, strlen(want));
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

/* --- bad user pointers: EFAULT, nothing changes --- */

KIT_TEST(efault)
{
	int fd;

	reset();
	attr_efault();

	fd = open_file("trigger", O_WRONLY);
	KIT_ASSERT_ERRNO(write(fd, kit_bad_ptr(), 5), EFAULT);
	close(fd);
	KIT_ASSERT_EQ(get_value(), 77);		/* no reset happened */
	KIT_ASSERT_EQ(get_stats().rejected, 4);	/* the four bad writes */
}

/* --- stats and trigger --- */

KIT_TEST(stats_count)
{
	int fd;

	reset();
	ASSERT_STATS(0, 0, 0);
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_EQ(pread(fd, buf, sizeof(buf), 0), 3);
	KIT_ASSERT_EQ(pread(fd, buf, sizeof(buf), 3), 0);	/* counted */
	KIT_ASSERT_EQ(write(fd, "5", 1), 1);
	KIT_ASSERT_ERRNO(write(fd, "x", 1), EINVAL);
	KIT_ASSERT_ERRNO(write(fd, "4294967296", 10), ERANGE);
	close(fd);
	ASSERT_STATS(2, 1, 2);
	fd = open_file("message", O_RDWR);
	KIT_ASSERT_EQ(pread(fd, buf, 4, 0), 4);
	KIT_ASSERT_EQ(pwrite(fd, "abc", 3, 0), 3);
	KIT_ASSERT_ERRNO(pwrite(fd, "abc", 3, MESSAGE_SIZE), ENOSPC);
	close(fd);
	ASSERT_STATS(3, 2, 3);
	fd = open_file("trigger", O_WRONLY);
	KIT_ASSERT_ERRNO(write(fd, "nope", 4), EINVAL);
	close(fd);
	ASSERT_STATS(3, 2, 4);
	reset();
	ASSERT_STATS(0, 0, 0);
}

KIT_TEST(trigger_commands)
{
	static const char *const bad[] = {
		"", "\n", "rese", "Reset", "RESET", "resetx", "reset now",
		" reset", "reset\n\n", "reset\r\n",
		"reset, and then something much longer than a command",
		"hold", "release", "recreate",	/* nothing for a copier */
	};
	size_t i;
	int fd;

	reset();
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		put("value", "7");
		fd = open_file("trigger", O_WRONLY);
		errno = 0;
		if (write(fd, bad[i], strlen(bad[i])) != -1 || errno != EINVAL)
			kit_fail("trigger \"%s\": not EINVAL",
				 esc(bad[i], strlen(bad[i])));
		close(fd);
		KIT_ASSERT_EQ(get_value(), 7);
	}
	set_message("changed", 7);
	fd = open_file("trigger", O_WRONLY);
	KIT_ASSERT_EQ(write(fd, "reset\n", 6), 6);
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
	expect_content("message", DEFAULT_MESSAGE, strlen(DEFAULT_MESSAGE));
	put("value", "7");
	KIT_ASSERT_EQ(write(fd, "reset", 5), 5);
	KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
	close(fd);

	/* Neither file has the other direction: EINVAL from the VFS. */
	fd = open_file("trigger", O_RDONLY);	/* root may open it */
	KIT_ASSERT_ERRNO(read(fd, buf, 10), EINVAL);
	close(fd);
	fd = open_file("stats", O_WRONLY);
	KIT_ASSERT_ERRNO(write(fd, "0", 1), EINVAL);
	close(fd);
}

/*
 * readv/writev: the VFS calls .read/.write once per segment, and
 * .read_iter/.write_iter once for all.  stats counts the calls.
 */
KIT_TEST(readv_writev_calls)
{
	char a[1], b[1], c[1];
	struct iovec in[3] = { { a, 1 }, { b, 1 }, { c, 1 } };
	struct iovec out[3] = {
		{ "1", 1 }, { "2", 1 }, { "\n", 1 },
	};
	struct iovec mout[3] = {
		{ "ab", 2 }, { "cd", 2 }, { "ef", 2 },
	};
	int conv = kit_form_iter();
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_EQ(readv(fd, in, 3), 3);
	KIT_ASSERT(a[0] == '4' && b[0] == '2' && c[0] == '\n');
	ASSERT_STATS(conv ? 1 : 3, 0, 0);

	/*
	 * Legacy: "1", then "2", then "\n" are three values; the last is
	 * rejected and writev() reports the 2 bytes before it.  Converted:
	 * one write of "12\n".
	 */
	KIT_ASSERT_EQ(writev(fd, out, 3), conv ? 3 : 2);
	KIT_ASSERT_EQ(get_value(), conv ? 12 : 2);
	ASSERT_STATS(conv ? 2 : 4, conv ? 1 : 2, conv ? 0 : 1);
	close(fd);

	reset();
	fd = open_file("message", O_WRONLY | O_TRUNC);
	KIT_ASSERT_EQ(writev(fd, mout, 3), 6);
	close(fd);
	ASSERT_STATS(0, conv ? 1 : 3, 0);
	expect_content("message", "abcdef", 6);
}

/* --- concurrency: readers never see a torn value or message --- */

KIT_TEST_TIMEOUT(concurrent_readers_writers, 300)
{
	reset();
	attr_concurrent_readers_writers();
}

/* --- what the iter path gains: splice, RWF_NOWAIT, io_uring --- */

/*
 * splice() and sendfile() from a file need .splice_read, splice() to it
 * .splice_write: the converted form sets copy_splice_read and
 * iter_file_splice_write, which hand a kernel-memory iterator to
 * .read_iter/.write_iter.  debugfs' proxy for the legacy form has
 * neither: EINVAL.
 */
KIT_TEST(splice)
{
	off_t off = 1;
	int p[2], fd, mfd;
	ssize_t n;

	reset();
	KIT_ASSERT_OK(pipe(p));
	mfd = KIT_ASSERT_OK(memfd_create("sendfile", 0));
	fd = open_file("value", O_RDWR);
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(splice(fd, NULL, p[1], NULL, 64, 0), EINVAL);
		KIT_ASSERT_ERRNO(sendfile(mfd, fd, NULL, 64), EINVAL);
		KIT_ASSERT_EQ(write(p[1], "7\n", 2), 2);
		KIT_ASSERT_ERRNO(splice(p[0], NULL, fd, NULL, 2, 0), EINVAL);
		KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
		close(fd);
		return;
	}
	KIT_ASSERT_EQ(splice(fd, NULL, p[1], NULL, 64, 0), 3);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 3);
	KIT_ASSERT_EQ(read(p[0], buf, sizeof(buf)), 3);
	KIT_ASSERT(!memcmp(buf, "42\n", 3));
	KIT_ASSERT_EQ(sendfile(mfd, fd, &off, 64), 2);	/* from 1 */
	KIT_ASSERT_EQ(pread(mfd, buf, sizeof(buf), 0), 2);
	KIT_ASSERT(!memcmp(buf, "2\n", 2));
	KIT_ASSERT_EQ(write(p[1], "7\n", 2), 2);
	KIT_ASSERT_EQ(splice(p[0], NULL, fd, NULL, 2, 0), 2);
	KIT_ASSERT_EQ(get_value(), 7);
	close(fd);

	fd = open_file("message", O_WRONLY | O_TRUNC);
	KIT_ASSERT_EQ(write(p[1], "spliced", 7), 7);
	KIT_ASSERT_EQ(splice(p[0], NULL, fd, NULL, 7, 0), 7);
	close(fd);
	expect_content("message", "spliced", 7);

	/* stats by splice reads as stats by read() */
	fd = open_file("stats", O_RDONLY);
	n = KIT_ASSERT_OK(splice(fd, NULL, p[1], NULL, 4096, 0));
	close(fd);
	KIT_ASSERT_EQ(read(p[0], buf, sizeof(buf)), n);
	expect_content("stats", buf, n);
}

/*
 * preadv2()/pwritev2() with RWF_NOWAIT: EOPNOTSUPP unless open() set
 * FMODE_NOWAIT, which the converted form does, because it honours
 * IOCB_NOWAIT (a contended mutex gives EAGAIN instead of sleeping).
 */
KIT_TEST(rwf_nowait)
{
	char v[16];
	struct iovec in = { v, sizeof(v) };
	struct iovec out = { "9\n", 2 };
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(preadv2(fd, &in, 1, 0, RWF_NOWAIT), EOPNOTSUPP);
		KIT_ASSERT_ERRNO(pwritev2(fd, &out, 1, 0, RWF_NOWAIT),
				 EOPNOTSUPP);
		KIT_ASSERT_EQ(get_value(), DEFAULT_VALUE);
	} else {
		KIT_ASSERT_EQ(preadv2(fd, &in, 1, 0, RWF_NOWAIT), 3);
		KIT_ASSERT(!memcmp(v, "42\n", 3));
		KIT_ASSERT_EQ(pwritev2(fd, &out, 1, 0, RWF_NOWAIT), 2);
		KIT_ASSERT_EQ(get_value(), 9);
	}
	close(fd);
}

/* io_uring reads both: in an io-wq worker (legacy) or inline (converted). */
KIT_TEST(io_uring_read)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char v[16];
	int fd, ret;

	reset();
	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
	fd = open_file("value", O_RDONLY);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, v, sizeof(v), 1);
	KIT_ASSERT_EQ(io_uring_submit(&ring), 1);
	KIT_ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	KIT_ASSERT_EQ(cqe->res, 2);
	KIT_ASSERT(!memcmp(v, "2\n", 2));
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
	ASSERT_STATS(kit_form_converted() ? 2 : 1, 0, 0);
}

/*
 * Writes while the lock is held. The converted form says EAGAIN to
 * RWF_NOWAIT (the legacy one has no FMODE_NOWAIT: EOPNOTSUPP), and an
 * io_uring write, whether or not it was tried without waiting first,
 * completes from an io-wq worker that waits for the lock. -EAGAIN is no
 * rejection: stats come out the same in both forms.
 */
KIT_TEST(contended_writes)
{
	struct iovec out = { "9\n", 2 }, reset_cmd = { "reset", 5 };
	int err = kit_form_converted() ? EAGAIN : EOPNOTSUPP;
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int fd, mfd, tfd, ret;

	reset();
	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
	fd = open_file("value", O_RDWR);
	mfd = open_file("message", O_RDWR);
	tfd = open_file("trigger", O_WRONLY);
	hold_lock();
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_pwritev2,
				     pwritev2(fd, &out, 1, 0, RWF_NOWAIT)),
			 err);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_pwritev2,
				     pwritev2(mfd, &out, 1, 0, RWF_NOWAIT)),
			 err);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_pwritev2,
				     pwritev2(tfd, &reset_cmd, 1, 0,
					      RWF_NOWAIT)), err);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, "7\n", 2, 0);
	KIT_ASSERT_EQ(KIT_NO_WAIT(SYS_io_uring_enter, io_uring_submit(&ring)),
		      1);
	usleep(200000);
	KIT_ASSERT_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
	release_lock();
	KIT_ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	KIT_ASSERT_EQ(cqe->res, 2);
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	ASSERT_STATS(0, 1, 0);
	KIT_ASSERT_EQ(get_value(), 7);
	expect_content("message", DEFAULT_MESSAGE, strlen(DEFAULT_MESSAGE));
	close(fd);
	close(mfd);
	close(tfd);
}

/* --- removal while a file is open --- */

/*
 * The "recreate" test hook removes value and creates it again while
 * the module stays, as when a device goes away and comes back. Calls on a
 * file still open on the old one get EIO without reaching the driver:
 * debugfs' proxy says so for the legacy form, DEBUGFS_ITER_SAFE() for the
 * converted one. A file opened afterwards works.
 */
KIT_TEST(removed_file_eio)
{
	struct stat st;
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_EQ(pread(fd, buf, sizeof(buf), 0), 3);
	put(ATTR_HOOKS, "recreate");
	KIT_ASSERT_ERRNO(pread(fd, buf, sizeof(buf), 0), EIO);
	KIT_ASSERT_ERRNO(write(fd, "5", 1), EIO);
	KIT_ASSERT_OK(close(fd));
	ASSERT_STATS(1, 0, 0);

	KIT_ASSERT_OK(stat(ATTR_DIR "/value", &st));
	KIT_ASSERT_EQ(st.st_mode & 07777, 0600);
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_EQ(write(fd, "5", 1), 1);
	KIT_ASSERT_EQ(pread(fd, buf, sizeof(buf), 0), 2);
	KIT_ASSERT(!memcmp(buf, "5\n", 2));
	close(fd);
	ASSERT_STATS(2, 1, 0);
}
#endif /* KIT_TEST_HOOKS */

/*
 * .owner = THIS_MODULE: opening a debugfs file takes a module reference,
 * with debugfs_create_file() and debugfs_create_file_unsafe() alike, so
 * the module can't be removed while a file is open (EWOULDBLOCK), and the
 * file keeps working.  kit-run removes the module after the last close.
 */
KIT_TEST(rmmod_while_open)
{
	int fd;

	reset();
	fd = open_file("value", O_RDWR);
	KIT_ASSERT_ERRNO(syscall(SYS_delete_module, MODNAME, O_NONBLOCK),
			 EWOULDBLOCK);
	KIT_ASSERT_EQ(pread(fd, buf, sizeof(buf), 0), 3);
	KIT_ASSERT(!memcmp(buf, "42\n", 3));
	KIT_ASSERT_EQ(write(fd, "5", 1), 1);
	KIT_ASSERT_EQ(get_value(), 5);
	close(fd);
	KIT_ASSERT_OK(access(ATTR_DIR "/value", F_OK));
}

int main(int argc, char **argv)
{
	return kit_test_main(argc, argv);
}
