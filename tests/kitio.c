// SPDX-License-Identifier: GPL-2.0
/*
 * kitio - one system call at a time on a device, for the demo, the tutorial
 * and its labs.  Each command prints what the call returned, so that the two
 * forms of a driver can be compared by eye:
 *
 *   kitio write DEV STRING...      one writev(), one segment per STRING
 *   kitio read DEV [SIZE]          one read() of SIZE bytes (default 4096)
 *   kitio readv DEV SIZE...        one readv(), one segment per SIZE
 *   kitio nowait DEV [SIZE]        one preadv2(..., RWF_NOWAIT)
 *   kitio splice DEV [SIZE]        one splice() from DEV into a pipe
 *   kitio nread DEV                ioctl(FIONREAD)
 *
 * DEV is opened with O_RDWR | O_NONBLOCK for read, readv and nread (so that an
 * empty queue says EAGAIN instead of waiting), and blocking otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_SEGS 16

static void show(const char *call, ssize_t ret)
{
	if (ret < 0)
		printf("%s = -1 %s (%s)\n", call, strerrorname_np(errno),
		       strerror(errno));
	else
		printf("%s = %zd\n", call, ret);
}

/* The data on one line, with newlines shown as \n. */
static void show_data(const char *what, const char *buf, ssize_t len)
{
	ssize_t i;

	if (len <= 0)
		return;
	printf("  %s \"", what);
	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			fputs("\\n", stdout);
		else
			putchar(buf[i]);
	}
	printf("\"\n");
}

static int bad_usage(void)
{
	fprintf(stderr,
		"usage: kitio write|read|readv|nowait|splice|nread DEV [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static char buf[MAX_SEGS][65536];
	struct iovec iov[MAX_SEGS];
	const char *cmd, *dev;
	size_t size = 4096;
	int fd, flags, i, n;
	ssize_t ret;

	if (argc < 3)
		return bad_usage();
	cmd = argv[1];
	dev = argv[2];
	n = argc - 3 < MAX_SEGS ? argc - 3 : MAX_SEGS;
	if (argc > 3)
		size = strtoul(argv[3], NULL, 0);
	if (size > sizeof(buf[0]))
		size = sizeof(buf[0]);

	flags = O_RDWR;
	if (!strcmp(cmd, "read") || !strcmp(cmd, "readv") ||
	    !strcmp(cmd, "nread"))
		flags |= O_NONBLOCK;
	fd = open(dev, flags);
	if (fd < 0) {
		perror(dev);
		return 1;
	}

	if (!strcmp(cmd, "write")) {
		for (i = 0; i < n; i++) {
			iov[i].iov_base = argv[3 + i];
			iov[i].iov_len = strlen(argv[3 + i]);
		}
		ret = writev(fd, iov, n);
		show("writev", ret);
	} else if (!strcmp(cmd, "read")) {
		ret = read(fd, buf[0], size);
		show("read", ret);
		show_data("got", buf[0], ret);
	} else if (!strcmp(cmd, "readv")) {
		for (i = 0; i < n; i++) {
			iov[i].iov_base = buf[i];
			iov[i].iov_len = strtoul(argv[3 + i], NULL, 0);
			if (iov[i].iov_len > sizeof(buf[i]))
				iov[i].iov_len = sizeof(buf[i]);
		}
		ret = readv(fd, iov, n);
		show("readv", ret);
		for (i = 0; ret > 0 && i < n; i++) {
			size_t len = (size_t)ret < iov[i].iov_len ?
				     (size_t)ret : iov[i].iov_len;

			printf("  segment %d", i);
			show_data("", buf[i], len);
			if (!len)
				printf("\n");
			ret -= len;
		}
	} else if (!strcmp(cmd, "nowait")) {
		iov[0].iov_base = buf[0];
		iov[0].iov_len = size;
		ret = preadv2(fd, iov, 1, -1, RWF_NOWAIT);
		show("preadv2(RWF_NOWAIT)", ret);
		show_data("got", buf[0], ret);
	} else if (!strcmp(cmd, "splice")) {
		int pipefd[2];

		if (pipe(pipefd))
			return 1;
		ret = splice(fd, NULL, pipefd[1], NULL, size, SPLICE_F_NONBLOCK);
		show("splice", ret);
		if (ret > 0)
			show_data("got", buf[0], read(pipefd[0], buf[0], ret));
	} else if (!strcmp(cmd, "nread")) {
		int avail = 0;

		ret = ioctl(fd, FIONREAD, &avail);
		show("ioctl(FIONREAD)", ret);
		if (!ret)
			printf("  next event: %d bytes\n", avail);
	} else {
		return bad_usage();
	}
	close(fd);
	return ret < 0;
}
