package io.healthmesh.testkit.farm;

/** Makes one target answer or stop answering; returns once the change is in force. */
interface TargetSwitch extends AutoCloseable {

    void set(boolean up) throws InterruptedException;

    @Override
    void close() throws InterruptedException;
}
