//go:build !linux

package main

import "os/exec"

// dieWithParent is Linux's parent-death signal; elsewhere the daemon of an
// interrupted bench must be stopped by hand.
func dieWithParent(c *exec.Cmd) *exec.Cmd { return c }
