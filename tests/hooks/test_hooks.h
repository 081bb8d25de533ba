/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_hooks.h - what the test hooks of tests/hooks/ share: a "hold" command
 * that takes a driver's lock and keeps it until "release" is written, so
 * that a test can look at what the driver's other calls do meanwhile.
 * Included by each MODULE_hooks.c after the driver's source; its
 * functions are static, one copy a module.
 */
#ifndef KIT_TEST_HOOKS_H
#define KIT_TEST_HOOKS_H

#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define KIT_HOLD_MAX		(20 * HZ)

static struct {
	bool			held;		/* "hold" has the lock */
	wait_queue_head_t	holdq;		/* "hold" waits for "release" */
} kit_hold_state;

static void kit_hold_init(void)
{
	init_waitqueue_head(&kit_hold_state.holdq);
}

/*
 * "hold": take @lock and keep it until kit_release(), a signal
 * (-ERESTARTSYS) or KIT_HOLD_MAX (-ETIMEDOUT), whichever comes first.
 */
static int kit_hold(struct mutex *lock)
{
	long left;

	mutex_lock(lock);
	WRITE_ONCE(kit_hold_state.held, true);
	left = wait_event_interruptible_timeout(kit_hold_state.holdq,
						!READ_ONCE(kit_hold_state.held),
						KIT_HOLD_MAX);
	WRITE_ONCE(kit_hold_state.held, false);
	mutex_unlock(lock);
	if (left < 0)
		return -ERESTARTSYS;
	return left ? 0 : -ETIMEDOUT;
}

/* "release": let "hold" go. */
static void kit_release(void)
{
	WRITE_ONCE(kit_hold_state.held, false);
	wake_up_interruptible(&kit_hold_state.holdq);
}

/*
 * A command written to test-hooks, as a string in @cmd (@size bytes, room
 * for the longest command, its newline and a NUL): 0, -EINVAL if it is
 * too long, or -EFAULT.
 */
static int kit_hooks_command(char *cmd, size_t size, const char __user *buf,
			     size_t count)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(cmd, buf, count))
		return -EFAULT;
	cmd[count] = '\0';
	return 0;
}

#endif /* KIT_TEST_HOOKS_H */
