package simclock

// Waiters lets the external tests see how many goroutines wait on c, so
// that a fake simulator publishes /clock only once a sleeper waits.
func Waiters(c *ROSClock) int { return c.waiters() }
