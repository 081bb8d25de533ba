// SPDX-License-Identifier: GPL-2.0
/*
 * kit_kread - a test tool: kernel_read() of a file, at module load
 *
 * tests/misc-fifo.c loads it to show what the kernel's own readers (the
 * firmware loader, exec, kernel_read_file() and the like) see of a driver:
 *
 *	insmod kit_kread.ko path=/dev/kitfifo
 *
 * The load opens the file (O_RDONLY | O_NONBLOCK, so that it never waits),
 * does one kernel_read() of up to KIT_KREAD_MAX bytes at position 0, closes
 * the file and logs the result.  A read of 0 bytes or more loads the module,
 * with the count in the read-only parameter "bytes"; an error fails the load
 * with that error.  kernel_read() calls only ->read_iter: on a file that has
 * ->read instead, it logs "kernel read not supported" and fails (-EINVAL).
 *
 * It reads into a kernel buffer and does nothing with the bytes: it is a
 * probe for the tests, not a template to copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#define KIT_KREAD_MAX	256

static char *path;
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "File to read (required)");

static int bytes = -1;
module_param(bytes, int, 0444);
MODULE_PARM_DESC(bytes, "Bytes that the load read (output)");

static int __init kit_kread_init(void)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t ret;
	char *buf;

	if (!path || !*path) {
		pr_err("no path= given\n");
		return -EINVAL;
	}
	buf = kmalloc(KIT_KREAD_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	file = filp_open(path, O_RDONLY | O_NONBLOCK, 0);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		pr_info("%s: open: error %zd\n", path, ret);
		goto out;
	}
	ret = kernel_read(file, buf, KIT_KREAD_MAX, &pos);
	fput(file);
	if (ret >= 0) {
		pr_info("%s: kernel_read: %zd bytes\n", path, ret);
		bytes = ret;
		ret = 0;
	} else {
		pr_info("%s: kernel_read: error %zd\n", path, ret);
	}
out:
	kfree(buf);
	return ret;
}

static void __exit kit_kread_exit(void)
{
}

module_init(kit_kread_init);
module_exit(kit_kread_exit);

MODULE_DESCRIPTION("iterkit test tool: kernel_read() of a file at load");
MODULE_LICENSE("GPL");
