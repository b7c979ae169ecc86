package io.healthmesh.prober.schedule;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/** A wall clock that reads a ticker, so that wall time and monotonic time move together in tests. */
final class TickerClock extends Clock {

    private final Ticker ticker;

    TickerClock(Ticker ticker) {
        this.ticker = ticker;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }

    @Override
    public long millis() {
        return TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
