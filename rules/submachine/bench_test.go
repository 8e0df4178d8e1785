package submachine

import (
	"syscall"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rules"
)

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPerft4 is perft 4 from the start:
//
//	go test -run '^$' -bench Perft -benchtime 5x ./rules/submachine/
//
// It reports leaves per second of wall time and, steadier on a shared
// machine, per second of CPU time.
func BenchmarkPerft4(b *testing.B) {
	s, _ := newGame(rules.Options{})
	var n uint64
	cpu := cpuTime()
	for b.Loop() {
		n = rules.Perft(s, 4)
	}
	cpu = cpuTime() - cpu
	if n != 2174145 {
		b.Fatalf("perft 4 = %d, want 2174145", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "nodes/cpu-s")
	}
}

// BenchmarkApply measures a move through the immutable API, as the game
// service plays it.
func BenchmarkApply(b *testing.B) {
	s, _ := newGame(rules.Options{})
	m, _ := s.Parse("Nb1-c3")
	for b.Loop() {
		if _, _, err := s.Apply(m); err != nil {
			b.Fatal(err)
		}
	}
}
