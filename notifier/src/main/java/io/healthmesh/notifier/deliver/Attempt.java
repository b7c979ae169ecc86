package io.healthmesh.notifier.deliver;

/** What one delivery attempt came to. */
public enum Attempt {
    /** The receiver took it (2xx). */
    DELIVERED,
    /** The receiver is away or busy (connection error, timeout, 408, 425, 429, 5xx): try again later. */
    RETRY,
    /** The receiver refused this message for good (another 3xx or 4xx): retrying cannot help. */
    REJECTED;

    /** The verdict of an HTTP status code. */
    public static Attempt ofStatus(int status) {
        if (status >= 200 && status < 300) {
            return DELIVERED;
        }
        if (status == 408 || status == 425 || status == 429 || status >= 500) {
            return RETRY;
        }
        return REJECTED;
    }
}
