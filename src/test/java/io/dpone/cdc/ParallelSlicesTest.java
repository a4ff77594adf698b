package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelSlicesTest {
    @Test
    void slicesCoverTheRangeOnceInOrder() {
        int size = 100_003;
        List<List<Integer>> parts = ParallelSlices.map(size, (from, to) -> {
            List<Integer> part = new ArrayList<>();
            for (int i = from; i < to; i++) {
                part.add(i);
            }
            return part;
        });
        assertEquals(ParallelSlices.slices(size), parts.size());
        assertEquals(IntStream.range(0, size).boxed().toList(), parts.stream().flatMap(List::stream).toList());
    }

    @Test
    void smallInputsRunAsOneSliceInTheCaller() {
        String caller = Thread.currentThread().getName();
        assertEquals(List.of(caller), ParallelSlices.map(ParallelSlices.MIN_SLICE * 2 - 1,
            (from, to) -> Thread.currentThread().getName()));
        assertEquals(1, ParallelSlices.slices(0));
        assertEquals(List.of(0), ParallelSlices.map(0, (from, to) -> to - from));
    }

    @Test
    void theLowestFailingSliceThrowsItsOwnExceptionAfterEverySliceFinished() {
        int size = ParallelSlices.MIN_SLICE * 8;
        int slices = ParallelSlices.slices(size);
        AtomicInteger finished = new AtomicInteger();
        ConcurrentHashMap<Integer, DponeException> thrown = new ConcurrentHashMap<>();
        java.util.concurrent.CountDownLatch firstThrew = new java.util.concurrent.CountDownLatch(1);
        DponeException e = assertThrows(DponeException.class, () -> ParallelSlices.map(size, (from, to) -> {
            if (from > 0) {
                // the later slices finish only after the first one threw
                io.dpone.testing.Await.until(java.time.Duration.ofSeconds(30), "the first slice to throw", firstThrew);
                finished.incrementAndGet();
            }
            DponeException typed = new DponeException(BlockerCode.INTERNAL_ERROR, "slice." + from, "slice failed");
            thrown.put(from, typed);
            if (from == 0) {
                firstThrew.countDown();
            }
            throw typed;
        }));
        assertSame(thrown.get(0), e, "the first slice's exception object, blockers and all");
        assertEquals("slice.0", e.blockers().get(0).subject());
        assertEquals(slices - 1, finished.get(), "no slice still runs once map has thrown");
    }
}
