// SPDX-License-Identifier: GPL-2.0
/*
 * kit_procfs_hooks - procfs-demo's test hooks, for the kit's own tests
 * (tests/procfs-demo.c) and no part of the template.  The tests need what
 * no driver offers: to hold the lock while they look at what reads do.
 * kit-procfs/test-hooks (root's, write-only) takes a command per write:
 *   hold	take the lock and keep it until "release" is written, a
 *		signal comes (-ERESTARTSYS) or KIT_HOLD_MAX passes (-ETIMEDOUT);
 *   release	let "hold" go.
 * Its open sets no FMODE_NOWAIT: it has only a .proc_write, which sleeps.
 *
 * Only the kit's build has them (scripts/test-hooks): it builds the module
 * kit_procfs.ko from this file, which includes the driver's source whole, so
 * that the hooks reach its static lock and files, and makes the module's
 * init the driver's, then the hooks'.  The driver's own Kbuild, which a
 * copy of the template builds, knows nothing of them.
 */
#include <linux/module.h>

/* The driver's module_init() names the init that ours calls first. */
#pragma push_macro("module_init")
#undef module_init
#define module_init(fn)
#include "kit_procfs.c"
#pragma pop_macro("module_init")

#include "test_hooks.h"

static int kit_hooks_open(struct inode *inode, struct file *file)
{
	file->private_data = pde_data(inode);
	return 0;
}

static ssize_t kit_hooks_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct kit_procfs *kp = file->private_data;
	char cmd[16];		/* "release\n" and a NUL, with room to spare */
	int ret;

	ret = kit_hooks_command(cmd, sizeof(cmd), buf, count);
	if (ret)
		return ret;
	if (sysfs_streq(cmd, "release"))
		kit_release();
	else if (sysfs_streq(cmd, "hold"))
		ret = kit_hold(&kp->lock);
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static const struct proc_ops kit_hooks_ops = {
	.proc_open	= kit_hooks_open,
	.proc_write	= kit_hooks_write,
	.proc_lseek	= default_llseek,
};

static int kit_test_hooks_add(struct kit_procfs *kp)
{
	kit_hold_init();
	if (!proc_create_data("test-hooks", 0200, kp->dir, &kit_hooks_ops, kp))
		return -ENOMEM;
	return 0;
}

static int __init kit_procfs_hooks_init(void)
{
	int ret;

	ret = kit_procfs_init();
	if (ret)
		return ret;
	ret = kit_test_hooks_add(&kit_procfs);
	if (ret)
		proc_remove(kit_procfs.dir);
	return ret;
}

module_init(kit_procfs_hooks_init);
