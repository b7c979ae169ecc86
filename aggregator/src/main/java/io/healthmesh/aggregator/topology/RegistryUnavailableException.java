package io.healthmesh.aggregator.topology;

/**
 * The schema registry could not be asked while a record was decoded: the record may be fine, so it is retried (the
 * task fails and resumes from its last commit) instead of being rejected. The one failure the target processor lets
 * escape; {@link RecordSafeHandlers} tells Kafka Streams to fail the task for it and only for it.
 */
final class RegistryUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
