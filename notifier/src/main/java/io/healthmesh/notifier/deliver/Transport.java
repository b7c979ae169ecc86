package io.healthmesh.notifier.deliver;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/** Sends one JSON body by HTTP POST and returns the status code. */
public interface Transport {

    /**
     * @throws IOException when no response arrived (connection refused or reset, timeout)
     */
    int post(URI uri, Map<String, String> headers, byte[] json, Duration timeout)
            throws IOException, InterruptedException;
}
