// SPDX-License-Identifier: Apache-2.0
//
// tests/system/sh/main.go - /bin/sh of the system tier's initramfs: a POSIX shell
// interpreter (mvdan.cc/sh/v3/interp, Debian package golang-mvdan-sh-dev), built
// static for riscv64, so that the guest (which has no busybox: Debian 12 ships no
// riscv64 binaries) runs the FPGA bring-up script fpga/bringup.sh unchanged.
//
//	sh [-e] [-u] [-x] SCRIPT [ARGS...]
//	sh -c 'COMMANDS' [NAME [ARGS...]]
//
// The interpreter's builtins (echo, printf, test, read, cd, set, ...) are the shell's;
// every other command is run from PATH. Exit status: the script's.
//
// The garbage collector is off: Debian 12's Go 1.19 packs pointers into 48 bits in its lock-free
// stacks (runtime/lfstack_64bit.go, addrBits = 48), which the GC uses, while Linux 6.1 on QEMU's
// rv64 (Sv57) maps memory near 2^56: a GC cycle then dies with "lfstack.push invalid packing"
// (seen in the system tier). A shell running one bring-up script allocates a few MiB at most.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

func main() {
	debug.SetGCPercent(-1)
	args := os.Args[1:]
	var opts []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-c" && args[0] != "--" {
		opts = append(opts, args[0])
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	var name, src string
	if len(args) >= 2 && args[0] == "-c" {
		name, src = "sh", args[1]
		args = args[2:]
		if len(args) > 0 {
			args = args[1:] // $0
		}
	} else if len(args) >= 1 {
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Fprintf(os.Stderr, "sh: %v\n", err)
			os.Exit(127)
		}
		name, src = args[0], string(b)
		args = args[1:]
	} else {
		fmt.Fprintln(os.Stderr, "usage: sh [-eux] SCRIPT [ARGS...] | sh -c COMMANDS [NAME [ARGS...]]")
		os.Exit(2)
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(src), name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sh: %v\n", err)
		os.Exit(2)
	}
	params := append(opts, "--")
	params = append(params, args...)
	r, err := interp.New(interp.StdIO(os.Stdin, os.Stdout, os.Stderr), interp.Params(params...),
		interp.Env(expand.ListEnviron(os.Environ()...)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "sh: %v\n", err)
		os.Exit(2)
	}
	err = r.Run(context.Background(), f)
	if status, ok := interp.IsExitStatus(err); ok {
		os.Exit(int(status))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sh: %v\n", err)
		os.Exit(1)
	}
}
