#!/usr/bin/env python3
"""Writes a synthetic JP profile (docs/profile-format.md) of a given number of contexts, for the
report benchmark and the HTML report's browser test: a seeded random walk down and back up the
calling-context tree, so that the tree has the shape of a deep real one (a few hot paths, long
tails, many paths beyond depth 40, recursion), over a fixed set of method names.

The walk climbs back more often the deeper it is; --mean-depth sets that scale, and its default of
20 gives contexts a mean depth of about 28 (the recursive chains add to it).
Now and then it calls a method already on its path (recursion), and now and then it descends a
recursive chain of two methods calling each other for 10 to 40 levels. The same arguments always
write the same file.

usage: generate-profile.py CONTEXTS OUT [--frames N] [--mean-depth N] [--max-depth N] [--seed N]
"""
import argparse
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("contexts", type=int)
    parser.add_argument("out")
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--mean-depth", type=int, default=20)
    parser.add_argument("--max-depth", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    frames = [
        f"com.example.p{i % 37}.C{i % 401}.m{i}({'I' * (i % 3)}Ljava/lang/String;)V"
        for i in range(args.frames)
    ]
    # parent id, frame index; ids from 1, parents before children.
    nodes = []
    children = {}  # (parent, frame) -> id, to keep one child per frame
    # The ids and frames from a thread root (id 0) down to the walk's current context.
    path = [0]
    frames_on_path = [-1]

    def descend(frame):
        key = (path[-1], frame)
        node = children.get(key)
        if node is None:
            nodes.append((path[-1], frame))
            node = len(nodes)
            children[key] = node
        path.append(node)
        frames_on_path.append(frame)

    while len(nodes) < args.contexts:
        depth = len(path) - 1
        # Climbing 2 levels on average, the walk stays around the depth where p = 1/3.
        climb = 0.25 + depth / (12 * args.mean_depth)
        if depth >= args.max_depth or (depth > 0 and rng.random() < climb):
            for _ in range(min(depth, rng.randint(1, 3))):
                path.pop()
                frames_on_path.pop()
            continue
        chance = rng.random()
        if depth > 2 and chance < 0.03:
            # Recursion: a method already on the path calls itself again, directly or not.
            descend(frames_on_path[rng.randint(1, depth)])
        elif depth > 2 and chance < 0.035:
            # A recursive chain of two methods calling each other.
            a, b = (min(int(args.frames * rng.random() ** 2), args.frames - 1) for _ in range(2))
            for level in range(rng.randint(10, 40)):
                if len(nodes) >= args.contexts or len(path) > args.max_depth:
                    break
                descend(a if level % 2 == 0 else b)
        else:
            # Hot frames are drawn more often: a power law over the frame list.
            descend(min(int(args.frames * rng.random() ** 3), args.frames - 1))

    with open(args.out, "w", encoding="utf-8") as out:
        out.write("jp-profile 1\nmeta agent default\nmeta bba precise\nmeta threads 8\n")
        out.write(f"meta command generate-profile.py {args.contexts} --seed {args.seed}\n")
        for index, name in enumerate(frames, 1):
            out.write(f"frame {index} {name}\n")
        for index, (parent, frame) in enumerate(nodes, 1):
            calls = 1 + int(1000 * rng.random() ** 8)
            out.write(f"node {index} {parent} {frame + 1} {calls} {calls * rng.randint(3, 400)}\n")
        out.write(f"end {len(nodes)}\n")


if __name__ == "__main__":
    main()
