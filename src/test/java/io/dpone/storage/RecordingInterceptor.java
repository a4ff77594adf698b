package io.dpone.storage;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records the S3 operation names a client executes and can make the n-th call of one operation fail. */
final class RecordingInterceptor implements ExecutionInterceptor {
    final List<String> operations = new CopyOnWriteArrayList<>();
    private final String failOperation;
    private final int failOnCall;

    RecordingInterceptor() {
        this(null, 0);
    }

    RecordingInterceptor(String failOperation, int failOnCall) {
        this.failOperation = failOperation;
        this.failOnCall = failOnCall;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        operations.add(operation);
        if (operation.equals(failOperation) && count(operation) == failOnCall) {
            throw new IllegalStateException("injected failure in " + operation);
        }
    }

    long count(String operation) {
        return operations.stream().filter(operation::equals).count();
    }
}
