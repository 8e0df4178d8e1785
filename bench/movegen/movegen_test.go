//go:build unix

// Package movegen compares bottlepost's chess move generator with
// github.com/dylhunn/dragontoothmg, the fastest pure-Go generator we know:
// perft(6) from the start position (119,060,324 leaves), one core, both
// counting the last ply without playing it. It is a module of its own so
// that the comparison's dependency stays out of bottlepost's go.mod.
//
// Run from this directory (see docs/performance.md):
//
//	go test -cpu 1 -run '^$' -bench . -benchtime 3x
package movegen

import (
	"syscall"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/chess"
	"github.com/dylhunn/dragontoothmg"
)

const depth, leaves = 6, 119060324

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report gives nodes per second of wall time and per second of CPU time:
// on a machine shared with other jobs the second is the steadier figure.
func report(b *testing.B, nodes uint64, cpu time.Duration) {
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
}

// BenchmarkBottlepostPerft6 goes through the public API, rules.Perft on a
// chess state, as the perft command does.
func BenchmarkBottlepostPerft6(b *testing.B) {
	s, err := chess.Variant.New(rules.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	cpu := cpuTime(b)
	for b.Loop() {
		if n := rules.Perft(s, depth); n != leaves {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, leaves)
		}
		nodes += leaves
	}
	report(b, nodes, cpuTime(b)-cpu)
}

// BenchmarkDragontoothPerft6 is dragontoothmg's own Perft.
func BenchmarkDragontoothPerft6(b *testing.B) {
	board := dragontoothmg.ParseFen(dragontoothmg.Startpos)
	var nodes uint64
	cpu := cpuTime(b)
	for b.Loop() {
		if n := dragontoothmg.Perft(&board, depth); n != leaves {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, leaves)
		}
		nodes += leaves
	}
	report(b, nodes, cpuTime(b)-cpu)
}
