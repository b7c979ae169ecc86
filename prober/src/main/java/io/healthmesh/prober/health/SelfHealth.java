package io.healthmesh.prober.health;

import static java.util.Objects.requireNonNull;

/**
 * The prober's verdict on itself, one sample a second, with hysteresis so that it does not flap: overloaded after
 * {@link SheddingPolicy#afterSamples()} bad samples in a row, healthy again after
 * {@link SheddingPolicy#recoverSamples()} good ones in a row. Pure; not thread-safe (one sampling thread).
 */
public final class SelfHealth {

    private final SheddingPolicy policy;
    private boolean overloaded;
    private int badInARow;
    private int goodInARow;
    private String lastTrouble;

    public SelfHealth(SheddingPolicy policy) {
        this.policy = requireNonNull(policy, "policy");
    }

    /** Applies one sample; true when the verdict changed. */
    public boolean observe(HealthSample sample) {
        String trouble = policy.trouble(sample);
        if (trouble != null) {
            lastTrouble = trouble;
            badInARow++;
            goodInARow = 0;
        } else {
            goodInARow++;
            badInARow = 0;
        }
        if (!overloaded && policy.enabled() && badInARow >= policy.afterSamples()) {
            overloaded = true;
            return true;
        }
        if (overloaded && goodInARow >= policy.recoverSamples()) {
            overloaded = false;
            return true;
        }
        return false;
    }

    public boolean overloaded() {
        return overloaded;
    }

    /** What made the last bad sample bad, or {@code null}. */
    public String lastTrouble() {
        return lastTrouble;
    }
}
