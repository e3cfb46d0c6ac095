-- Sign-in throttling now counts in rate_limits (d1/rate-limits.ts) under sign-in: keys; windows in
-- progress start afresh once.
DROP TABLE `login_failures`;
