package io.healthmesh.testkit;

/** A broker the tests of a run share: embedded in this JVM or in a container. */
interface TestBroker extends AutoCloseable {

    /** The address clients connect to. */
    String bootstrapServers();

    /** Stops the broker; never throws, a broker that fails to stop is logged. */
    @Override
    void close();
}
