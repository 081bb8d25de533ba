// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of scripts/convert's output, run in the guest by tests/host/convert
 * with each form of convert/test/'s guest cases loaded:
 *
 *	convert-guest --form legacy|wrapped|native	(as root)
 *
 * legacy is the case as written, wrapped and native what scripts/convert
 * --wrap and --native made of it.  Each test checks that the output works
 * as the case did, where the conversion could break it without breaking
 * the build:
 *   guest_write (telemetry's debugfs.c)  a debugfs file's write still
 *                                        reaches the driver;
 *   guest_poll (cros_ec_debugfs.c)       a poll on a file whose device
 *                                        went says EPOLLHUP, a read EIO;
 *   guest_owner (apple-gmux.c)           an open file keeps the module in;
 *   guest_module (LDD3's scull)          both files' devices read and
 *                                        write, converted alike;
 *   guest_bounded (a status byte)        a read that copies more than
 *                                        count keeps read(fd, buf, 0)'s
 *                                        result.
 * Where the iterator path differs (one write call for a writev), each form
 * gets its own outcome.
 */
#include "kit_test.h"

#include <poll.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define WRITE_FILE	"/sys/kernel/debug/guest_write/verbosity"
#define POLL_FILE	"/sys/kernel/debug/guest_poll/log"
#define POLL_BOUND	"/sys/module/guest_poll/parameters/bound"
#define OWNER_FILE	"/sys/kernel/debug/guest_owner/port_data"
#define MODULE_MAIN	"/dev/kitmod"
#define MODULE_EXTRA	"/dev/kitmod_single"
#define BOUNDED_DEV	"/dev/guest_bounded"

static int open_or_fail(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		kit_failed(__FILE__, __LINE__, errno, "open %s", path);
	return fd;
}

/* path's contents (at most size - 1 bytes), as a string. */
static void read_file(const char *path, char *out, size_t size)
{
	int fd = open_or_fail(path, O_RDONLY);
	ssize_t n = read(fd, out, size - 1);

	if (n < 0)
		kit_failed(__FILE__, __LINE__, errno, "read %s", path);
	out[n] = '\0';
	close(fd);
}

static void write_file(const char *path, const char *s)
{
	int fd = open_or_fail(path, O_WRONLY);

	KIT_ASSERT_EQ(write(fd, s, strlen(s)), (long long)strlen(s));
	close(fd);
}

/* --- guest_write: the full proxy passed .write only --- */

KIT_TEST(write_reaches_the_driver)
{
	char got[64];

	write_file(WRITE_FILE, "3");
	read_file(WRITE_FILE, got, sizeof(got));
	KIT_ASSERT(!strcmp(got, "verbosity 3\n"));
	write_file(WRITE_FILE, "7\n");
	read_file(WRITE_FILE, got, sizeof(got));
	KIT_ASSERT(!strcmp(got, "verbosity 7\n"));
}

/*
 * A writev of "1" and "2": the iterator path parses "12" in one call,
 * .write (and the wrapper) "1" then "2".
 */
KIT_TEST(write_writev_calls)
{
	struct iovec iov[2] = { { "1", 1 }, { "2", 1 } };
	char got[64];
	int fd = open_or_fail(WRITE_FILE, O_WRONLY);

	KIT_ASSERT_EQ(writev(fd, iov, 2), 2);
	close(fd);
	read_file(WRITE_FILE, got, sizeof(got));
	KIT_ASSERT(!strcmp(got, kit_form_iter() ? "verbosity 12\n" :
			   "verbosity 2\n"));
}

KIT_TEST(write_bad_number_einval)
{
	int fd = open_or_fail(WRITE_FILE, O_WRONLY);

	KIT_ASSERT_ERRNO(write(fd, "x", 1), EINVAL);
	close(fd);
}

/* --- guest_poll: the file of a device that goes away --- */

KIT_TEST(poll_ready)
{
	struct pollfd p = { .events = POLLIN };
	char got[64];
	ssize_t n;

	p.fd = open_or_fail(POLL_FILE, O_RDONLY);
	KIT_ASSERT_EQ(poll(&p, 1, 0), 1);
	KIT_ASSERT_EQ(p.revents, POLLIN);
	n = read(p.fd, got, sizeof(got) - 1);
	KIT_ASSERT_EQ(n, 7);
	got[n] = '\0';
	KIT_ASSERT(!strcmp(got, "tick 0\n"));
	close(p.fd);
}

/*
 * The device goes while the file is open (its state is freed): nothing
 * may reach the driver any more.  debugfs' proxy answers a poll with
 * EPOLLHUP and a read with EIO; DEBUGFS_POLL_SAFE() and
 * DEBUGFS_ITER_SAFE() must answer the same.
 */
KIT_TEST(poll_after_removal_hangs_up)
{
	struct pollfd p = { .events = POLLIN };
	char got[64];

	p.fd = open_or_fail(POLL_FILE, O_RDONLY);
	write_file(POLL_BOUND, "0");
	KIT_ASSERT_EQ(poll(&p, 1, 0), 1);
	KIT_ASSERT_EQ(p.revents, POLLHUP);
	KIT_ASSERT_ERRNO(read(p.fd, got, sizeof(got)), EIO);
	close(p.fd);
	write_file(POLL_BOUND, "1");
	KIT_ASSERT_OK(access(POLL_FILE, F_OK));
}

/* --- guest_owner: .owner, and a wrapped write beside a native read --- */

KIT_TEST(owner_write_read)
{
	unsigned int v = 0x11223344, got = 0;
	unsigned char low = 0x55;
	int fd = open_or_fail(OWNER_FILE, O_RDWR);

	KIT_ASSERT_EQ(pwrite(fd, &v, 4, 0), 4);
	KIT_ASSERT_EQ(pread(fd, &got, 4, 0), 4);
	KIT_ASSERT_EQ(got, 0x11223344);
	KIT_ASSERT_EQ(pwrite(fd, &low, 1, 0), 1);
	KIT_ASSERT_EQ(pread(fd, &got, 4, 0), 4);
	KIT_ASSERT_EQ(got, 0x11223355);
	KIT_ASSERT_ERRNO(pwrite(fd, &v, 2, 0), EINVAL);
	close(fd);
}

/*
 * Under debugfs_create_file_unsafe() the VFS calls the module's code
 * itself: .owner must keep the module in while the file is open.
 */
KIT_TEST(owner_rmmod_refused_while_open)
{
	unsigned int got;
	int fd;

	/*
	 * The case as written has no .owner: under debugfs' proxy rmmod
	 * succeeds with the file open, and the proxy's release then reads
	 * the unloaded module's fops.
	 */
	if (kit_form_legacy())
		KIT_SKIP("legacy: no .owner, the module can go");
	fd = open_or_fail(OWNER_FILE, O_RDONLY);
	KIT_ASSERT_ERRNO(syscall(SYS_delete_module, "guest_owner", O_NONBLOCK),
			 EWOULDBLOCK);
	KIT_ASSERT_EQ(pread(fd, &got, 4, 0), 4);
	close(fd);
}

/* --- guest_module: two files, one pair of functions --- */

static void module_write_read(const char *dev, const char *s)
{
	char got[64];
	int fd = open_or_fail(dev, O_RDWR);
	ssize_t n;

	KIT_ASSERT_EQ(write(fd, s, strlen(s)), (long long)strlen(s));
	n = pread(fd, got, sizeof(got), 0);
	KIT_ASSERT_EQ(n, (long long)strlen(s));
	KIT_ASSERT(!memcmp(got, s, n));
	close(fd);
}

KIT_TEST(module_both_devices)
{
	module_write_read(MODULE_MAIN, "main");
	module_write_read(MODULE_EXTRA, "extra");
	module_write_read(MODULE_MAIN, "main again");
}

/*
 * Each write replaces what the device holds: a writev of "ab" and "cd" is
 * one call on the iterator path ("abcd"), two through .write or the
 * wrapper ("cd").  Both files' fops must have changed alike.
 */
static void module_writev(const char *dev)
{
	struct iovec iov[2] = { { "ab", 2 }, { "cd", 2 } };
	const char *want = kit_form_iter() ? "abcd" : "cd";
	char got[16];
	int fd = open_or_fail(dev, O_RDWR);
	ssize_t n;

	KIT_ASSERT_EQ(writev(fd, iov, 2), 4);
	n = pread(fd, got, sizeof(got), 0);
	KIT_ASSERT_EQ(n, (long long)strlen(want));
	KIT_ASSERT(!memcmp(got, want, n));
	close(fd);
}

KIT_TEST(module_writev_calls)
{
	module_writev(MODULE_MAIN);
	module_writev(MODULE_EXTRA);
}

KIT_TEST(module_rmmod_refused_while_open)
{
	int fd = open_or_fail(MODULE_EXTRA, O_RDWR);

	KIT_ASSERT_ERRNO(syscall(SYS_delete_module, "guest_module",
				 O_NONBLOCK), EWOULDBLOCK);
	close(fd);
}

/* --- guest_bounded: a copy that count doesn't bound --- */

/*
 * .read copied its status byte whatever count said: read(fd, buf, 0)
 * returned 1.  copy_to_iter() stops at count, so a native read would
 * give EFAULT: every form must return 1 still (the tool wraps the read).
 */
KIT_TEST(bounded_zero_read_keeps_its_byte)
{
	char got[4] = "";
	int fd = open_or_fail(BOUNDED_DEV, O_RDWR);

	KIT_ASSERT_EQ(read(fd, got, 0), 1);
	KIT_ASSERT_EQ(got[0], 'k');
	KIT_ASSERT_EQ(write(fd, "z", 1), 1);
	KIT_ASSERT_EQ(read(fd, got, sizeof(got)), 1);
	KIT_ASSERT_EQ(got[0], 'z');
	KIT_ASSERT_EQ(write(fd, "k", 1), 1);
	close(fd);
}

int main(int argc, char **argv)
{
	return kit_test_main(argc, argv);
}
