package mailer

// Len returns how many senders the limiter remembers (its bound is tested).
func (l *RateLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recency.Len()
}
