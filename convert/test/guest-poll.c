// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test, run in the guest too (tests/convert-guest.c):
 * shaped like drivers/platform/chrome/cros_ec_debugfs.c.  A device's
 * debugfs file, created with debugfs_create_file() when the device comes
 * and removed when it goes, its state freed then; the fops has .owner,
 * .open, .read, .poll and .release.  debugfs' proxy keeps a file that is
 * still open from reaching the driver once removed: a poll gets EPOLLHUP,
 * a read EIO.  Moved to debugfs_create_file_unsafe() for its .read_iter,
 * each method must keep that guard, .poll too.
 *
 *	/sys/kernel/debug/guest_poll/log	"tick N\n", readable at once
 *	/sys/module/guest_poll/parameters/bound	1: the device comes, 0: goes
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

struct guest_poll {
	struct dentry		*dir;
	struct mutex		lock;	/* ticks */
	wait_queue_head_t	wait;
	unsigned int		ticks;
};

/* The device while it is there (module parameters' lock). */
static struct guest_poll *guest_poll_dev;
/*
 * A test hook: true once the device went.  Nothing of ours may run for a
 * file opened before: the poll below says so, where it would otherwise
 * use the freed state.
 */
static bool guest_poll_gone;

static int log_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return nonseekable_open(inode, file);
}

static ssize_t log_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	struct guest_poll *gp = file->private_data;
	char line[32];
	int len;

	mutex_lock(&gp->lock);
	len = scnprintf(line, sizeof(line), "tick %u\n", gp->ticks);
	mutex_unlock(&gp->lock);
	return simple_read_from_buffer(buf, count, ppos, line, len);
}

static __poll_t log_poll(struct file *file, poll_table *wait)
{
	struct guest_poll *gp = file->private_data;

	if (READ_ONCE(guest_poll_gone)) {
		pr_err("guest_poll: poll after the device went\n");
		return EPOLLIN;		/* not EPOLLHUP: the test fails */
	}
	poll_wait(file, &gp->wait, wait);
	return EPOLLIN | EPOLLRDNORM;
}

static int log_release(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations log_fops = {
	.owner = THIS_MODULE,
	.open = log_open,
	.read = log_read,
	.poll = log_poll,
	.release = log_release,
};

static int guest_poll_bind(void)
{
	struct guest_poll *gp;

	if (guest_poll_dev)
		return -EBUSY;
	gp = kzalloc(sizeof(*gp), GFP_KERNEL);
	if (!gp)
		return -ENOMEM;
	mutex_init(&gp->lock);
	init_waitqueue_head(&gp->wait);
	gp->dir = debugfs_create_dir("guest_poll", NULL);
	debugfs_create_file("log", S_IFREG | 0444, gp->dir, gp, &log_fops);
	WRITE_ONCE(guest_poll_gone, false);
	guest_poll_dev = gp;
	return 0;
}

static void guest_poll_unbind(void)
{
	struct guest_poll *gp = guest_poll_dev;

	if (!gp)
		return;
	guest_poll_dev = NULL;
	/* Waits for calls in flight; later ones must not reach us. */
	debugfs_remove_recursive(gp->dir);
	WRITE_ONCE(guest_poll_gone, true);
	mutex_destroy(&gp->lock);
	kfree(gp);
}

static int bound_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret)
		return ret;
	if (on)
		return guest_poll_bind();
	guest_poll_unbind();
	return 0;
}

static const struct kernel_param_ops bound_ops = {
	.set	= bound_set,
};
module_param_cb(bound, &bound_ops, NULL, 0200);
MODULE_PARM_DESC(bound, "1: the device comes, 0: it goes");

static int __init guest_poll_init(void)
{
	return guest_poll_bind();
}
module_init(guest_poll_init);

static void __exit guest_poll_exit(void)
{
	guest_poll_unbind();
}
module_exit(guest_poll_exit);

MODULE_DESCRIPTION("scripts/convert's test: a debugfs file's poll");
MODULE_LICENSE("GPL");
