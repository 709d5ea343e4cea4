package webhooks

import (
	"fmt"
	"strings"
	"time"
)

// MaxScheduleAttempts and MaxScheduleDelay bound a retry schedule.
const (
	MaxScheduleAttempts = 30
	MaxScheduleDelay    = 7 * 24 * time.Hour
)

// ParseSchedule reads a retry schedule written as comma-separated Go
// durations, the delay before each attempt: "0s,5s,5m,30m,2h".
func ParseSchedule(s string) ([]time.Duration, error) {
	parts := strings.Split(s, ",")
	if strings.TrimSpace(s) == "" || len(parts) > MaxScheduleAttempts {
		return nil, fmt.Errorf("a retry schedule is 1 to %d comma-separated durations such as 0s,5s,5m,30m,2h", MaxScheduleAttempts)
	}
	out := make([]time.Duration, 0, len(parts))
	for i, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil || d < 0 || d > MaxScheduleDelay {
			return nil, fmt.Errorf("retry schedule item %d %q: want a duration from 0s to %s such as 30s, 5m or 2h", i+1, strings.TrimSpace(p), MaxScheduleDelay)
		}
		out = append(out, d)
	}
	return out, nil
}

// FormatSchedule writes a schedule as ParseSchedule reads it.
func FormatSchedule(schedule []time.Duration) string {
	parts := make([]string, len(schedule))
	for i, d := range schedule {
		parts[i] = d.String()
	}
	return strings.Join(parts, ",")
}
