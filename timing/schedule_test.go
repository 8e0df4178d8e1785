package timing

import (
	"strings"
	"testing"
)

func TestParseSchedule(t *testing.T) {
	tests := []struct {
		spec string
		ok   bool
	}{
		{"@every 1m", true},
		{"0 8 * * *", true},
		{"CRON_TZ=Europe/Berlin 30 7 * * *", true},
		{"", false},
		{"TZ=", false},
		{"CRON_TZ=UTC", false},
		{"CRON_TZ=Nowhere/Land 0 8 * * *", false},
		{"0 8 * * * * *", false},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			s, err := ParseSchedule(tt.spec)
			if (err == nil) != tt.ok || (err == nil) != (s != nil) {
				t.Fatalf("ParseSchedule(%q) = %v, %v; want ok=%v", tt.spec, s, err, tt.ok)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "timing: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}
