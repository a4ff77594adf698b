package io.dpone.testing;

/** A process that prints "ready" and waits until its stdin closes (for tests of JVM-level agents). */
public final class IdleMain {
    private IdleMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the test
        }
    }
}
