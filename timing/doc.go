// Package timing is the time vocabulary that the configuration and the game
// service share, pure (no clock of its own): correspondence time controls
// (TimeControl, "3d", "10/50d+2d") with the per-side Clock they run, and
// cron schedules (ParseSchedule) for the sweep and the players' digests.
package timing
