package io.dpone.quality;

/** A check of the loaded staging table against what the source produced. */
public interface QualityGate {
    String name();

    GateResult evaluate(SourceStats source, TargetStats target);
}
