"""The solve's inner loop as machine code, compiled with llvmlite: rows of a buffer, each
the max, the mean, the sum or the first finite value of other rows (`Program`), and the
gather of a batch's next values from a table (`Gather`).

numpy reduces over gathered rows in two passes (an `np.take` into scratch, then a reduce),
each at memory speed; here each output row is computed 16 columns at a time in registers,
reading each source row once.  The order of operations is numpy's (sources left to right, a
mean is the sum times 1/6), so the values match to the last bit (`tests/test_kernel.py`).
The machine code is cached on disk (`use_cache`), keyed by the IR, LLVM's version and the
CPU.  Why llvmlite and not numba, and what each costs: docs/solver.md ("A compiled kernel").
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray

LANES = 16  # columns computed at once: four 4-double vectors (AVX2 has 16 registers)
KINDS = ("max", "mean", "plus", "first")  # the kernel's op codes, in this order
Kind = Literal["max", "mean", "plus", "first"]
IntArray = npt.NDArray[np.int64]
log = logging.getLogger(__name__)

# run(buffer, stride, cols, ops, n_ops, ptr, idx, scales)
_Run = Callable[[int, int, int, int, int, int, int, int], None]
# gather(table, buffer, stride, n, rows, base, key, delta, add)
_Gather = Callable[[int, int, int, int, int, int, int, int, int], None]
# band_gather(values, first, span, buf, stride, cols, need0, rows, succ, shift)
_BandGather = Callable[[int, int, int, int, int, int, int, int, int, int], None]


@dataclass(frozen=True)
class Reduction:
    """buffer[start + g] = the max, the mean, the sum plus a constant, or the first value
    above -inf of buffer[r] for r in sources[g], for each g (a mean is the sum times
    `scale`, "plus" the sum plus it; "first" is -inf if every source is).

    A row may read its own output row (a keep's best overwrites its own mean): each group
    of columns is read in full before it is written.  No row may read another output row of
    the same reduction, which would see it half written (checked in `Program`).
    """

    kind: Kind
    start: int
    sources: Sequence[Sequence[int]]
    scale: float = 1.0  # a mean's factor (1/6 for a die's six faces), or the points added

    @property
    def stop(self) -> int:
        return self.start + len(self.sources)


class Program:
    """Reductions run in order over one buffer, as the kernel's arrays: one op per
    reduction (kind, first output row, rows, offset into `ptr`) and the source rows of every
    output row, compressed (`idx[ptr[g]:ptr[g + 1]]`)."""

    def __init__(self, reductions: Sequence[Reduction], n_rows: int) -> None:
        ops: list[int] = []
        ptr: list[int] = []
        idx: list[int] = []
        for red in reductions:
            assert red.sources and all(red.sources), "a reduction needs rows and sources"
            assert red.start >= 0 and red.stop <= n_rows
            ops += [KINDS.index(red.kind), red.start, len(red.sources), len(ptr)]
            for g, rows in enumerate(red.sources):
                assert all(0 <= r < n_rows for r in rows), "a source outside the buffer"
                assert all(r == red.start + g or not red.start <= r < red.stop for r in rows), (
                    "a source written by the same reduction"
                )
                ptr.append(len(idx))
                idx += rows
            ptr.append(len(idx))
        self.n_rows = n_rows
        self.n_ops = len(reductions)
        self.ops: IntArray = np.array(ops, dtype=np.int64)
        self.ptr: IntArray = np.array(ptr, dtype=np.int64)
        self.idx: IntArray = np.array(idx, dtype=np.int64)
        self.scales: FloatArray = np.array([r.scale for r in reductions], dtype=np.float64)

    @classmethod
    def of_arrays(
        cls, ops: IntArray, ptr: IntArray, idx: IntArray, scales: FloatArray, n_rows: int
    ) -> Program:
        """A program given as its arrays, unchecked: a play-to-win solve builds one per
        group of states (`win_solve`), where the checks' Python loops would cost more than
        running it."""
        program = cls.__new__(cls)
        program.n_rows, program.n_ops = n_rows, len(ops) // 4
        program.ops, program.ptr, program.idx, program.scales = ops, ptr, idx, scales
        return program

    def bind(self, buf: FloatArray) -> Callable[[int], None]:
        """The program on `buf` (rows `n_rows`, C-contiguous), as a call taking the number
        of columns to compute (a multiple of `LANES`, at most the buffer's width).

        The returned call holds the arrays it points into, so they live as long as it."""
        assert buf.flags.c_contiguous and buf.dtype == np.float64
        assert buf.shape[0] == self.n_rows
        run = kernel().run
        stride = buf.shape[1]
        addresses = (self.ops.ctypes.data, self.ptr.ctypes.data, self.idx.ctypes.data)
        ops, ptr, idx = addresses
        scales = self.scales.ctypes.data
        base = buf.ctypes.data
        n_ops = self.n_ops
        keep = (self, buf)

        def call(cols: int) -> None:
            assert 0 <= cols <= stride and cols % LANES == 0, cols
            assert keep
            run(base, stride, cols, ops, n_ops, ptr, idx, scales)

        return call


def padded(cols: int) -> int:
    """`cols` rounded up to whole groups of LANES columns."""
    return -(-cols // LANES) * LANES


class Gather:
    """Rows [0, rows) of a buffer from a table: for each state c of a batch (its index in the
    table `base[c]` and its key `key[c]`) and each row r,
    buffer[r, c] = table[base[c] + delta[key[c], r]] + add[key[c], r].

    This is where a state's boxes lead (`batched.block_keys`): the key says which boxes are
    open, `delta` where filling box r leads from there and `add` its points and bonus (-inf
    for a closed box, whose delta is 0: the state itself).  Fused, the indices never exist as
    an array; numpy wrote them out and read them back for every state and box.  The indices
    are not checked per call: they are the state space's own, built with the table."""

    def __init__(self, delta: IntArray, add: FloatArray) -> None:
        assert delta.shape == add.shape and delta.dtype == np.int64 and add.dtype == np.float64
        self.delta = np.ascontiguousarray(delta)
        self.add = np.ascontiguousarray(add)
        self.rows = delta.shape[1]

    def bind(
        self, table: FloatArray, buf: FloatArray, first_row: int
    ) -> Callable[[int, int, int], None]:
        """A call (base address, key address, n) writing rows [first_row, first_row + rows)
        of `buf` for n states from `table`; the addresses are of int64 arrays of n."""
        assert table.flags.c_contiguous and buf.flags.c_contiguous
        assert first_row + self.rows <= buf.shape[0]
        gather = kernel().gather
        stride = buf.shape[1]
        out = buf.ctypes.data + 8 * first_row * stride
        source = table.ctypes.data
        rows, delta, add = self.rows, self.delta.ctypes.data, self.add.ctypes.data
        keep = (self, table, buf)

        def call(base: int, key: int, n: int) -> None:
            assert 0 <= n <= stride and keep
            gather(source, out, stride, n, rows, base, key, delta, add)

        return call


@dataclass(frozen=True)
class Kernel:
    engine: object  # the LLVM engine that owns the machine code
    run: _Run
    gather: _Gather
    band_gather: _BandGather
    cached: bool  # loaded from the cache (not compiled in this process)
    run_address: int  # `run`'s machine code, for compiled callers (`win_solve`)


_LOCK = threading.Lock()
_COMPILED: list[Kernel] = []
_CACHE: list[Path] = []  # where compiled kernels are kept (`use_cache`); empty: nowhere


def use_cache(directory: Path | None) -> None:
    """Keep the compiled kernel in `directory` (made if missing) for later processes, or
    nowhere with None.  The CLI, the app and the solver pool's workers pass
    DICEREF_KERNEL_CACHE_DIR (`TableSettings.kernel_dir`), so the container image, which
    solves every table at build time, ships the kernel compiled."""
    with _LOCK:
        _CACHE[:] = [] if directory is None else [directory]


def kernel() -> Kernel:
    """The compiled kernel, built on first use in this process (a forked child inherits it)."""
    if _COMPILED:
        return _COMPILED[0]
    with _LOCK:
        if not _COMPILED:
            _COMPILED.append(_compile(_CACHE[0] if _CACHE else None))
        return _COMPILED[0]


def _compile(cache: Path | None) -> Kernel:
    """Machine code for this CPU: from the cache if it holds this kernel for this CPU and
    LLVM, else compiled (LLVM's O3 passes and code generation) and written there.  A cache
    that cannot be read or written is only a cost: the kernel compiles."""
    import llvmlite
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    text = _ir()
    cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    triple = llvm.get_default_triple()
    key = "\n".join([text, llvmlite.__version__, triple, cpu, features])
    path = None
    if cache is not None:
        path = cache / f"kernel-{hashlib.sha256(key.encode()).hexdigest()[:24]}.o"
    stored = _read(path)
    module = llvm.parse_assembly(text)
    module.verify()
    target = llvm.Target.from_triple(triple)
    machine = target.create_target_machine(opt=3, cpu=cpu, features=features)
    if stored is None:
        passes = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(3))
        passes.getModulePassManager().run(module, passes)
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.set_object_cache(
        lambda _module, code: _write(path, code) if stored is None else None,
        lambda _module: stored,
    )
    engine.finalize_object()
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    run = ctypes.CFUNCTYPE(None, ptr, i64, i64, ptr, i64, ptr, ptr, ptr)
    gather = ctypes.CFUNCTYPE(None, ptr, ptr, i64, i64, i64, ptr, ptr, ptr, ptr)
    bands = ctypes.CFUNCTYPE(None, ptr, ptr, ptr, ptr, i64, i64, i64, i64, ptr, ptr)
    return Kernel(
        engine,
        run(engine.get_function_address("run")),
        gather(engine.get_function_address("gather")),
        bands(engine.get_function_address("band_gather")),
        cached=stored is not None,
        run_address=engine.get_function_address("run"),
    )


def _read(path: Path | None) -> bytes | None:
    """The cached machine code, if its digest (the file's last 32 bytes) matches: damaged
    machine code would not fail cleanly, it would crash the process."""
    if path is None:
        return None
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    code, digest = blob[:-32], blob[-32:]
    if len(blob) <= 32 or hashlib.sha256(code).digest() != digest:
        log.warning("ignoring a damaged compiled kernel at %s", path)
        return None
    return code


def _write(path: Path | None, code: bytes) -> None:
    """Written whole under a temporary name, then renamed: a reader sees all or nothing."""
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(code + hashlib.sha256(code).digest())
        partial.replace(path)
    except OSError as exc:  # a read-only image, a full disk: next time it compiles again
        log.info("compiled kernel not cached in %s: %s", path.parent, exc)


def _ir() -> str:
    """The kernel's LLVM IR (see `_Builder`)."""
    return _Builder().module()


class _Builder:
    """Writes the kernel with llvmlite's IR builder (imported here: only a solve needs it).

    `run(buf, stride, cols, ops, n_ops, ptr, idx, scales)` loops over the ops and calls
    `reduce_max` or `reduce_mean`, which loop over a reduction's output rows, then over
    groups of LANES columns, then over the row's sources with four vector accumulators.
    """

    def __init__(self) -> None:
        from llvmlite import ir

        self.ir: Any = ir
        self.i64 = ir.IntType(64)
        self.f64 = ir.DoubleType()
        self.vec = ir.VectorType(self.f64, 4)
        self.b: Any = None

    def const(self, value: int) -> Any:
        return self.ir.Constant(self.i64, value)

    def module(self) -> str:
        ir = self.ir
        module = ir.Module(name="diceref_kernel")
        kinds = {
            "max": self.reduction(module, "reduce_max", self.maximum, None),
            "mean": self.reduction(module, "reduce_mean", self.add, "fmul"),
            "plus": self.reduction(module, "reduce_plus", self.add, "fadd"),
            "first": self.reduction(module, "reduce_first", self.first, None),
        }
        assert tuple(kinds) == KINDS
        self.gather(module)
        self.band_gather(module)
        p_f64, p_i64 = self.f64.as_pointer(), self.i64.as_pointer()
        args = [p_f64, self.i64, self.i64, p_i64, self.i64, p_i64, p_i64, p_f64]
        run = ir.Function(module, ir.FunctionType(ir.VoidType(), args), name="run")
        buf, stride, cols, ops, n_ops, ptr, idx, scales = run.args
        b = self.b = ir.IRBuilder(run.append_basic_block("entry"))

        def op(o: Any) -> None:
            at = b.mul(o, self.const(4))
            kind, start, rows, offset = (
                b.load(b.gep(ops, [b.add(at, self.const(k))])) for k in range(4)
            )
            call = [buf, stride, cols, start, rows, b.gep(ptr, [offset]), idx]
            scale = b.load(b.gep(scales, [o]))
            for code, function in enumerate(kinds.values()):
                with b.if_then(b.icmp_signed("==", kind, self.const(code))):
                    b.call(function, [*call, scale])

        self.loop(self.const(0), n_ops, op, "op")
        b.ret_void()
        return str(module)

    def maximum(self, acc: Any, x: Any) -> Any:
        """numpy's maximum where no NaN can occur (the tables hold -inf, never NaN)."""
        return self.b.select(self.b.fcmp_ordered(">", x, acc), x, acc)

    def add(self, acc: Any, x: Any) -> Any:
        return self.b.fadd(acc, x)

    def first(self, acc: Any, x: Any) -> Any:
        """acc if it is above -inf, else x."""
        floor = self.ir.Constant(self.vec, [float("-inf")] * 4)
        return self.b.select(self.b.fcmp_ordered(">", acc, floor), acc, x)

    def reduction(
        self, module: Any, name: str, combine: Callable[[Any, Any], Any], finish: str | None
    ) -> Any:
        """name(buf, stride, cols, start, rows, ptr, idx, scale): for g < rows,
        buf[start + g, :cols] = combine over j in [ptr[g], ptr[g+1]) of buf[idx[j], :cols],
        then `finish` ("fmul" or "fadd") with `scale`."""
        ir = self.ir
        i64, vec = self.i64, self.vec
        p_f64, p_i64 = self.f64.as_pointer(), i64.as_pointer()
        args = [p_f64, i64, i64, i64, i64, p_i64, p_i64, self.f64]
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), args), name=name)
        fn.linkage = "internal"
        buf, stride, cols, start, rows, ptr, idx, scale = fn.args
        for arg in (ptr, idx):
            arg.add_attribute("noalias")
        b = self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        lane = b.insert_element(ir.Constant(vec, ir.Undefined), scale, ir.IntType(32)(0))
        splat = ir.Constant(ir.VectorType(ir.IntType(32), 4), [0, 0, 0, 0])
        factor = b.shuffle_vector(lane, ir.Constant(vec, ir.Undefined), splat)

        def row_of(r: Any) -> Any:
            return b.gep(buf, [b.mul(r, stride)])

        def cell(row: Any, col: Any, k: int) -> Any:
            return b.bitcast(b.gep(row, [b.add(col, self.const(4 * k))]), vec.as_pointer())

        def output_row(g: Any) -> None:
            out = row_of(b.add(start, g))
            first = b.load(b.gep(ptr, [g]))
            end = b.load(b.gep(ptr, [b.add(g, self.const(1))]))
            head = row_of(b.load(b.gep(idx, [first])))

            def columns(c: Any) -> None:
                initial = [b.load(cell(head, c, k), align=8) for k in range(4)]
                second = b.add(first, self.const(1))
                entry = b.block
                check = b.append_basic_block("src.check")
                body = b.append_basic_block("src.body")
                done = b.append_basic_block("src.done")
                b.branch(check)
                b.position_at_end(check)
                j = b.phi(i64, "j")
                j.add_incoming(second, entry)
                acc = [b.phi(vec, f"acc{k}") for k in range(4)]
                for phi, value in zip(acc, initial, strict=True):
                    phi.add_incoming(value, entry)
                b.cbranch(b.icmp_signed("<", j, end), body, done)
                b.position_at_end(body)
                src = row_of(b.load(b.gep(idx, [j])))
                for k, phi in enumerate(acc):
                    phi.add_incoming(combine(phi, b.load(cell(src, c, k), align=8)), body)
                j.add_incoming(b.add(j, self.const(1)), body)
                b.branch(check)
                b.position_at_end(done)
                for k, phi in enumerate(acc):
                    value = getattr(b, finish)(phi, factor) if finish else phi
                    b.store(value, cell(out, c, k), align=8)

            self.loop(self.const(0), cols, columns, "col", step=LANES)

        self.loop(self.const(0), rows, output_row, "row")
        b.ret_void()
        return fn

    def gather(self, module: Any) -> None:
        """gather(table, buf, stride, n, rows, base, key, delta, add): for c < n, r < rows,
        buf[r, c] = table[base[c] + delta[key[c], r]] + add[key[c], r] (`Gather`)."""
        ir = self.ir
        i64, f64 = self.i64, self.f64
        p_f64, p_i64 = f64.as_pointer(), i64.as_pointer()
        args = [p_f64, p_f64, i64, i64, i64, p_i64, p_i64, p_i64, p_f64]
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), args), name="gather")
        table, buf, stride, n, rows, base, key, delta, add = fn.args
        for arg in (base, key, delta, add):
            arg.add_attribute("noalias")
        b = self.b = ir.IRBuilder(fn.append_basic_block("entry"))

        def state(c: Any) -> None:
            at = b.load(b.gep(base, [c]))
            row0 = b.mul(b.load(b.gep(key, [c])), rows)
            column = b.gep(buf, [c])

            def box(r: Any) -> None:
                t = b.add(row0, r)
                got = b.load(b.gep(table, [b.add(at, b.load(b.gep(delta, [t])))]))
                value = b.fadd(got, b.load(b.gep(add, [t])))
                b.store(value, b.gep(column, [b.mul(r, stride)]))

            self.loop(self.const(0), rows, box, "box")

        self.loop(self.const(0), n, state, "state")
        b.ret_void()

    def band_gather(self, module: Any) -> None:
        """band_gather(values, first, span, buf, stride, cols, need0, rows, succ, shift): for
        r < rows, c < cols, with j = succ[r]: buf[r, c] = values[clamp(first[j] + 1 + need0 +
        c - shift[r] - span[2j], first[j], first[j] + span[2j+1] - span[2j] + 1)], -inf where
        j < 0 (`BandGather`).  Each band is stored between two sentinels, the value below
        it and the value above it, so the clamp reads those outside the band."""
        ir = self.ir
        i64, f64 = self.i64, self.f64
        p_f64, p_i64 = f64.as_pointer(), i64.as_pointer()
        args = [p_f64, p_i64, p_i64, p_f64, i64, i64, i64, i64, p_i64, p_i64]
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), args), name="band_gather")
        values, first, span, buf, stride, cols, need0, rows, succ, shift = fn.args
        for arg in (first, span, succ, shift):
            arg.add_attribute("noalias")
        b = self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        floor = ir.Constant(f64, float("-inf"))

        def row(r: Any) -> None:
            j = b.load(b.gep(succ, [r]))
            out = b.gep(buf, [b.mul(r, stride)])
            closed = b.icmp_signed("<", j, self.const(0))
            with b.if_else(closed) as (then, otherwise):
                with then:
                    self.loop(self.const(0), cols, lambda c: b.store(floor, b.gep(out, [c])), "neg")
                with otherwise:
                    f = b.load(b.gep(first, [j]))
                    lo = b.load(b.gep(span, [b.mul(j, self.const(2))]))
                    hi = b.load(b.gep(span, [b.add(b.mul(j, self.const(2)), self.const(1))]))
                    last = b.add(b.sub(b.add(f, hi), lo), self.const(1))
                    base = b.sub(
                        b.sub(b.add(b.add(f, self.const(1)), need0), b.load(b.gep(shift, [r]))), lo
                    )

                    def cell(c: Any) -> None:
                        at = b.add(base, c)
                        at = b.select(b.icmp_signed("<", at, f), f, at)
                        at = b.select(b.icmp_signed(">", at, last), last, at)
                        b.store(b.load(b.gep(values, [at])), b.gep(out, [c]))

                    self.loop(self.const(0), cols, cell, "cell")

        self.loop(self.const(0), rows, row, "row")
        b.ret_void()

    def loop(
        self, start: Any, stop: Any, body: Callable[[Any], None], name: str, step: int = 1
    ) -> None:
        """for i in range(start, stop, step): body(i), as basic blocks at the builder's end."""
        b = self.b
        entry = b.block
        check = b.append_basic_block(f"{name}.check")
        inside = b.append_basic_block(f"{name}.body")
        done = b.append_basic_block(f"{name}.done")
        b.branch(check)
        b.position_at_end(check)
        i = b.phi(self.i64, name)
        i.add_incoming(start, entry)
        b.cbranch(b.icmp_signed("<", i, stop), inside, done)
        b.position_at_end(inside)
        body(i)
        i.add_incoming(b.add(i, self.const(step)), b.block)
        b.branch(check)
        b.position_at_end(done)
