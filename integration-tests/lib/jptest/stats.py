"""What the benchmarks compute from their timings: medians, the spread of a set of runs, ratios and
geometric means. A value that is missing or not positive gives None, which a table shows as such."""
import math


def median(values):
    """The middle of VALUES, the mean of the two middle ones for an even count; None for none."""
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def spread(values):
    """(max - min) / median of VALUES: how far apart repeated runs are; None below two values."""
    middle = median(values)
    if len(values) < 2 or middle <= 0:
        return None
    return (max(values) - min(values)) / middle


def ratio(numerator, denominator):
    """NUMERATOR / DENOMINATOR, or None unless both are there and positive."""
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return None
    return numerator / denominator


def geometric_mean(values):
    """The geometric mean of positive VALUES; None for none."""
    if not values:
        return None
    return math.exp(sum(math.log(value) for value in values) / len(values))
