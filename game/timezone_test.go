package game

import "testing"

func TestTimezone(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"a zone", "timezone Europe/Berlin", "Deadlines will be shown in Europe/Berlin (now CET, UTC+01:00)."},
		{"UTC", "timezone UTC", "Deadlines will be shown in UTC (now UTC, UTC+00:00)."},
		{"a half-hour zone", "timezone Asia/Kolkata", "(now IST, UTC+05:30)"},
		{"unknown", "timezone Mars/Olympus", `"Mars/Olympus" is not a time zone name`},
		{"local is not a zone", "timezone Local", `"Local" is not a time zone name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			pa := f.personal(alice)
			f.send(alice, pa, "tz", tt.line)
			f.mustContain(f.last(alice), tt.want)
		})
	}
}
