"""Portability hazards (HP4xx-HP5xx): what renaming cannot fix.

HP40x: warp-size (wavefront 64) assumptions; HP42x: inline assembly;
HP50x: features HIP lacks or treats differently.  Each explanation says why
the code breaks on AMD GPUs, what to do, and shows a before/after pair."""
from __future__ import annotations

from dataclasses import replace

from hipport.diagnostics.model import Category, Code, Fixable, Severity, Work


def _explain(why: str, what: str, before: str, after: str) -> str:
    return (f"## Why\n\n{why}\n\n## What to do\n\n{what}\n\n## Example\n\n"
            f"Before:\n\n```cuda\n{before.strip()}\n```\n\nAfter:\n\n```cpp\n{after.strip()}\n```\n")


_WAVE64 = ("AMD data-centre GPUs (CDNA: MI100, MI200, MI300) execute 64 threads per "
           "wavefront; CUDA code is written for 32-thread warps.  `warpSize` is 64 there.")

_HAZARDS: tuple[Code, ...] = (
    Code("HP401", "warp-size-literal",
         "Lane or warp arithmetic with a literal 32 (`% 32`, `& 31`, `/ 32`, `>> 5`, "
         "`lane == 31`).", Severity.WARNING, _explain(
             f"{_WAVE64} `threadIdx.x % 32` then numbers lanes 0-31 twice inside one "
             "wavefront and `threadIdx.x / 32` counts two \"warps\" per wavefront, so "
             "per-warp results, lane-0 leaders and last-lane tests are wrong.",
             "Use `warpSize` (or a compile-time wavefront-size constant). The fix "
             "replaces the literal with `warpSize` and is *unsafe*: the surrounding "
             "algorithm (shared-memory sizes, loop bounds, masks) may still assume 32, "
             "so apply it with `--unsafe-fixes` and review the function.",
             "int lane = threadIdx.x % 32;\nint warp = threadIdx.x >> 5;\n"
             "if (lane == 31) last[warp] = v;",
             "int lane = threadIdx.x % warpSize;\nint warp = ((threadIdx.x) / warpSize);\n"
             "if (lane == (warpSize - 1)) last[warp] = v;")),
    Code("HP402", "warp-size-loop",
         "Loop around warp shuffles or votes bounded by 16 or 32 lanes.", Severity.WARNING,
         _explain(
             f"{_WAVE64} A butterfly or tree reduction that starts at offset 16 "
             "combines only 32 of the 64 lanes, and a scan that stops at 32 leaves "
             "the upper half of the wavefront unscanned.",
             "Bound the loop by `warpSize` (start at `warpSize / 2`). The fix is "
             "*unsafe*: check what consumes the result (e.g. one partial per 32 "
             "threads).",
             "for (int o = 16; o > 0; o /= 2)\n    v += __shfl_down_sync(0xffffffff, v, o);",
             "for (int o = warpSize / 2; o > 0; o /= 2)\n    v += __shfl_down(v, o);")),
    Code("HP403", "warp-sized-shared-array",
         "`__shared__` array with a dimension of 32 indexed by a lane.", Severity.WARNING,
         _explain(
             f"{_WAVE64} A per-lane array of 32 entries is indexed up to 63 on AMD and "
             "overflows into the next row or past the end.",
             "Size the dimension for 64 lanes (64 works for both vendors), or with a "
             "compile-time wavefront size. There is no automatic fix: `warpSize` is not a "
             "constant expression in every ROCm release.",
             "__shared__ float partial[8][32];\npartial[warp][lane] = v;",
             "__shared__ float partial[8][64];\npartial[warp][lane] = v;")),
    Code("HP404", "lane-mask-32-bit",
         "A full 32-bit lane mask compared with a vote, or a lane bit built in 32 bits.",
         Severity.WARNING, _explain(
             f"{_WAVE64} HIP's `__ballot` returns a 64-bit mask. `ballot == 0xffffffff` "
             "is false when all 64 lanes vote, and `1u << lane` is undefined for lanes "
             "32-63.",
             "Compare against the active mask of the wavefront (`__ballot(1)`) and "
             "build lane bits from a 64-bit one (`1ull << lane`, the *unsafe* fix).",
             "unsigned lt = (1u << lane) - 1;\n"
             "if (__ballot_sync(0xffffffff, ok) == 0xffffffff) done = true;",
             "unsigned long long lt = (1ull << lane) - 1;\n"
             "if (__ballot(ok) == __ballot(1)) done = true;")),
    Code("HP405", "ballot-truncated",
         "A vote result stored in a 32-bit integer or counted with a 32-bit bit function.",
         Severity.WARNING, _explain(
             f"{_WAVE64} Storing `__ballot` in an `unsigned` keeps only lanes 0-31; "
             "`__popc`/`__ffs` of it count or find only in the lower half.",
             "Keep votes in `unsigned long long` and use `__popcll`, `__ffsll`, "
             "`__clzll`. The fixes are *unsafe*: other uses of the variable may also "
             "assume 32 bits.",
             "unsigned votes = __ballot_sync(0xffffffff, x > 0);\nint n = __popc(votes);",
             "unsigned long long votes = __ballot(x > 0);\nint n = __popcll(votes);")),
    Code("HP406", "tile-of-32",
         "`tiled_partition<32>` / `thread_block_tile<32>` used as a warp.", Severity.INFO,
         _explain(
             f"{_WAVE64} A 32-thread tile is valid in HIP but is half a wavefront: code "
             "that treats the tile as the hardware warp (mixing it with raw `__shfl`, "
             "`__ballot`, `warpSize`) sees 64 lanes.",
             "Keep the tile size only if the algorithm needs 32; otherwise use a tile "
             "of the wavefront size and the tile's own `shfl`/`ballot` members.",
             "auto warp = cg::tiled_partition<32>(cg::this_thread_block());",
             "auto warp = cg::tiled_partition<64>(cg::this_thread_block());  "
             "// a whole wavefront"),
         work=Work.REVIEW),
    Code("HP407", "syncwarp",
         "`__syncwarp`: no HIP release before ROCm 7 declares it, and its mask is 32 bits.",
         Severity.WARNING, _explain(
             "`__syncwarp(mask)` orders memory between the lanes of a 32-thread warp "
             "under independent thread scheduling. No HIP release before ROCm 7 (5.2, 5.7, "
             "6.4 checked) declares `__syncwarp`, not even behind "
             "`HIP_ENABLE_WARP_SYNC_BUILTINS`, which gives ROCm 6.2+ the other `_sync` warp "
             "functions. ROCm 7.2 declares it (unless `HIP_DISABLE_WARP_SYNC_BUILTINS` is "
             "defined) for the whole wavefront, with a 64-bit mask: its `static_assert` "
             "refuses CUDA's 32-bit masks (`__syncwarp(0xffffffff)` does not compile there "
             "unless the polyfill header adds their overloads, which `--polyfills none` "
             "leaves out).",
             "Lanes of a wavefront execute together on AMD, but the compiler may still "
             "reorder shared-memory accesses: replace the call with a block barrier "
             "(`__syncthreads()`) when all threads reach it, or with wavefront fences "
             "(`__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"); "
             "__builtin_amdgcn_wave_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "
             "\"wavefront\");`). On ROCm 7.2 without the polyfill header, widen a mask "
             "to 64 bits: `0xffffffffffffffffull` for the whole wavefront, `__ballot(1)` "
             "for the active lanes.",
             "s[lane] = v;\n__syncwarp();\nv = s[lane ^ 1];",
             "s[lane] = v;\n__syncthreads();  // every thread of the block reaches here\n"
             "v = s[lane ^ 1];"),
         work=Work.BREAKS_BUILD),
    Code("HP408", "implicit-warp-lockstep",
         "Warp-synchronous reduction through `volatile` memory without barriers.",
         Severity.WARNING, _explain(
             "The classic `if (tid < 32) { vs[tid] += vs[tid + 32]; vs[tid] += vs[tid + "
             "16]; ... }` tail relies on the 32 lanes of one warp running in lock step. "
             f"{_WAVE64} The tail's 32 threads are half a wavefront and the offsets no "
             "longer match the hardware width; `volatile` orders nothing between lanes.",
             "Finish the reduction with wavefront shuffles bounded by `warpSize`, or keep "
             "`__syncthreads()` between the steps.",
             "if (tid < 32) { volatile float* vs = s; vs[tid] += vs[tid + 32];\n"
             "  vs[tid] += vs[tid + 16]; /* ... */ }",
             "float v = s[tid];\nif (tid < warpSize) {\n"
             "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);\n}")),
    Code("HP409", "warp-size-constant",
         "A constant named for the warp size defined as 32 (`#define WARP_SIZE 32`, "
         "`constexpr int kWarpSize = 32`).", Severity.WARNING, _explain(
             f"{_WAVE64} Lane numbers (`tid % WARP_SIZE`), warps per block, per-warp "
             "shared-memory rows and reduction loops written with the constant all inherit "
             "the 32, without a literal 32 left for hipport to point at.",
             "Use `warpSize` wherever a run-time value will do. Where a constant expression "
             "is needed (array sizes, template arguments), define the constant for the "
             "target (64 on CDNA: MI100, MI200, MI300; 32 on RDNA) and review every use: code "
             "that packs a warp's lanes into 32-bit masks needs 64-bit ones. There is no "
             "automatic fix.",
             "#define WARP_SIZE 32\nint lane = threadIdx.x % WARP_SIZE;",
             "#define WARP_SIZE 64  // CDNA wavefront; every use reviewed\n"
             "int lane = threadIdx.x % WARP_SIZE;")),
    Code("HP410", "shuffle-width-32",
         "Warp shuffle with an explicit width of 32 (`__shfl_xor_sync(m, v, 16, 32)`).",
         Severity.WARNING, _explain(
             f"{_WAVE64} With a width of 32 a shuffle works inside each 32-lane half of the "
             "wavefront: lanes 32-63 never exchange values with lanes 0-31. That matches "
             "CUDA only where the rest of the code also treats 32 lanes as its unit; mixed "
             "with `warpSize`, `__ballot` or per-wavefront results it gives half-wavefront "
             "answers.",
             "Drop the width (it defaults to `warpSize`) or pass `warpSize` when the whole "
             "warp is meant, and check the offsets and loop bounds with it (HP402); keep 32 "
             "only where the algorithm deliberately works on groups of 32 lanes.",
             "for (int m = 16; m > 0; m /= 2)\n    v += __shfl_xor_sync(FULL_MASK, v, m, 32);",
             "for (int m = warpSize / 2; m > 0; m /= 2)\n    v += __shfl_xor(v, m);"),
         work=Work.REVIEW),
    Code("HP411", "warp-mask-dropped",
         "A warp `_sync` call whose mask is not the whole warp lost its mask: HIP's "
         "mask-less form acts on the lanes active at the call.", Severity.WARNING, _explain(
             "CUDA's `__shfl_*_sync`, `__ballot_sync`, `__any_sync` and `__all_sync` take the "
             "mask of the lanes that take part. HIP 5.2 has no `_sync` forms at all; ROCm 6.2+ "
             "declares them only when `HIP_ENABLE_WARP_SYNC_BUILTINS` is defined, with a "
             "64-bit mask (a 32-bit one fails a `static_assert`) that must equal the lanes "
             "active at the call, so widening a CUDA mask is wrong on 64-lane wavefronts. "
             "What compiles on every target is the mask-less form, which hipport emits: it "
             "acts on whichever lanes are active. That is the mask's meaning only when exactly "
             "the mask's lanes reach the call (a full mask, or a mask computed as the active "
             "lanes); lanes that diverged elsewhere (allowed since Volta) are never waited "
             "for on AMD.",
             "Check that the lanes named by the mask are the lanes active at the call; if "
             "they are not, restructure the code so that they are (or keep a 64-bit mask "
             "under `HIP_ENABLE_WARP_SYNC_BUILTINS` on ROCm 6.2+). `hipport convert --strict` "
             "fails while such calls are left unconfirmed; `// hipport: ignore[HP411]` on "
             "the line confirms one.",
             "unsigned m = __ballot_sync(0xffffffff, lane < n);\n"
             "if (lane < n) v += __shfl_down_sync(m, v, 1);",
             "unsigned long long m = __ballot(lane < n);\n"
             "if (lane < n) v += __shfl_down(v, 1);  // the lanes of m are the active ones"),
         work=Work.REVIEW),
    Code("HP412", "tile-exceeds-wavefront",
         "Cooperative-groups tile larger than the wavefront of the GPUs built for "
         "(`tiled_partition<128>`; `<64>` on RDNA).", Severity.ERROR, _explain(
             "HIP's tiles are parts of one wavefront: `tiled_partition<N>` and "
             "`thread_block_tile<N>` `static_assert` that N is at most the wavefront size "
             "(\"Tiled partition with size > wavefront size\", HIP 5.2 and ROCm 6.4 alike), "
             "and `tiled_partition(group, n)` asserts at run time. CUDA allows tiles of up "
             "to 1024 threads (with `block_tile_memory`). The wavefront is 64 lanes on CDNA "
             "(gfx90a, gfx942) and 32 on RDNA (gfx10xx, gfx11xx, gfx12xx); hipport takes "
             "the GPUs from `--offload-arch` (default gfx90a;gfx942).",
             "Work with tiles of the wavefront size (`warpSize`) and combine their results "
             "through shared memory, or use the thread block (`this_thread_block()`) where "
             "the tile spanned it.",
             "auto tile = cg::tiled_partition<128>(block);\nv = cg::reduce(tile, v, "
             "cg::plus<float>());",
             "auto tile = cg::tiled_partition<64>(block);  // one wavefront\n"
             "for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);\n"
             "// then combine the two tiles' results through shared memory"),
         work=Work.BREAKS_BUILD),
    Code("HP413", "texture-without-image-support",
         "Texture or surface access built for a GPU without texture units (gfx942: MI300); "
         "it does not compile for that target.", Severity.ERROR, _explain(
             "MI300 GPUs (gfx940, gfx941, gfx942) have no texture units. ROCm's headers mark "
             "every texture fetch (`tex1Dfetch`, `tex2D`, `tex3DLod`, ...) and surface access "
             "(`surf2Dread`, ...) `unavailable(\"The image/texture API not supported on the "
             "device\")` when compiling for them, so the file fails to compile for that "
             "target (ROCm 6.4). gfx90a and the RDNA GPUs have texture units. hipport takes "
             "the GPUs from `--offload-arch` (default gfx90a;gfx942).",
             "Build for GPUs with texture units only (`hipport convert --offload-arch "
             "gfx90a`, and the same in your build files), or replace the texture reads with "
             "plain loads (and the filtering or addressing modes they did, by hand) where "
             "MI300 matters.",
             "__global__ void k(cudaTextureObject_t t, float* o) {\n"
             "  o[0] = tex2D<float>(t, 0.5f, 0.5f);\n}",
             "__global__ void k(const float* img, int pitch, float* o) {\n"
             "  o[0] = img[0 * pitch + 0];  // the texel, no filtering\n}"),
         work=Work.BREAKS_BUILD),
    Code("HP414", "target-without-image-support-left-out",
         "The code reads textures, which MI300 (gfx942) lacks: it was left out of the default "
         "GPU targets written into the build files.", Severity.WARNING, _explain(
             "hipport's default GPU targets are gfx90a and gfx942. MI300 (gfx940-gfx942) has "
             "no texture units, and ROCm declares the texture and surface API unavailable "
             "when compiling for it, so a tree whose sources read or write textures "
             "(`tex2D`, `tex1Dfetch`, `surf2Dread`, ...) would not build for it. Without "
             "`--offload-arch`, the run leaves those GPUs out of every target list it writes "
             "(`CMAKE_HIP_ARCHITECTURES`, `--offload-arch=`), and says so at the first such "
             "call of each file. With `--offload-arch` naming gfx942, each call is HP413 "
             "instead.",
             "Nothing, to build for gfx90a. To run on MI300, replace the texture reads with "
             "plain loads where it matters, then convert with `--offload-arch "
             "\"gfx90a;gfx942\"`.",
             "__global__ void k(cudaTextureObject_t t, float* o) {\n"
             "  o[0] = tex2D<float>(t, 0.5f, 0.5f);\n}",
             "# CMakeLists.txt, converted\nset(CMAKE_HIP_ARCHITECTURES gfx90a)"),
         work=Work.NONE),
    Code("HP415", "block-transpose-not-whole-wavefronts",
         "hipCUB block load or store through warps (`BLOCK_LOAD_WARP_TRANSPOSE`, "
         "`BLOCK_STORE_WARP_TRANSPOSE`) for a block that is not a whole number of "
         "wavefronts (`cub::BlockLoad<int, 96, 4, ...>`).", Severity.ERROR, _explain(
             "The warp-transposing algorithms stage each warp's items through shared memory, "
             "so the block must be whole warps. 96 threads are three 32-lane warps on NVIDIA "
             "GPUs but one and a half 64-lane wavefronts on CDNA (gfx90a, gfx942): rocPRIM's "
             "`block_load` and `block_store`, which hipCUB's BlockLoad and BlockStore use, "
             "`static_assert` \"BlockSize must be a multiple of hardware warpsize\" (ROCm 6.4; "
             "the `_TIMESLICED` forms map to the same method). hipCUB's other block "
             "primitives (BlockReduce, BlockScan, BlockRadixSort, BlockExchange) take any "
             "block size: rocPRIM reduces and scans a partial last wavefront over its valid "
             "lanes, so `BlockReduce<float, 96>` and `BlockScan<int, 32>` are not reported.",
             "Make the block a multiple of 64 threads (and launch it so), or use "
             "`BLOCK_LOAD_TRANSPOSE` / `BLOCK_STORE_TRANSPOSE`, which give the same blocked "
             "arrangement through shared memory for any block size.",
             "using Load = cub::BlockLoad<int, 96, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;",
             "using Load = hipcub::BlockLoad<int, 96, 4, hipcub::BLOCK_LOAD_TRANSPOSE>;"),
         work=Work.BREAKS_BUILD),
    Code("HP416", "atomic-overload-redefined",
         "The project defines an atomic overload that CUDA lacks and HIP declares "
         "(`__device__ float atomicMax(float*, float)`): a redefinition.", Severity.ERROR,
         _explain(
             "CUDA has no floating-point `atomicMin`/`atomicMax`/`atomicSub`/`atomicCAS` "
             "(nor `atomicExch` on double, nor the `unsigned long` atomics), so CUDA code "
             "often defines its own. HIP declares all of them as inline device functions "
             "(amd_hip_atomic.h, HIP 5.2 and ROCm 6.4 alike): a definition with the same "
             "parameters is a redefinition of HIP's function and the file does not compile. "
             "A template, or a function in a namespace, is another entity and is not "
             "reported.",
             "Keep the project's definition for the CUDA build only and let the AMD build "
             "use HIP's (HIP's float `atomicMax` is a compare-and-swap loop that handles "
             "negative values and -0.0, which the integer trick some projects use does "
             "not), or rename the project's function and its calls.",
             "__device__ float atomicMax(float* address, float val) { /* CAS loop */ }",
             "#if !defined(__HIP_PLATFORM_AMD__)  // HIP declares atomicMax(float*, float)\n"
             "__device__ float atomicMax(float* address, float val) { /* CAS loop */ }\n"
             "#endif"),
         work=Work.BREAKS_BUILD),
    Code("HP418", "half-precision-atomic",
         "`atomicAdd` on a `half2`, `half` or bfloat16 address: ROCm declares no such "
         "overload.", Severity.ERROR,
         _explain(
             "CUDA declares `atomicAdd(__half2*, __half2)` (sm_60 on), `atomicAdd(__half*, "
             "__half)` (sm_70) and their bfloat16 forms (sm_80) in cuda_fp16.h and "
             "cuda_bf16.h. HIP's headers (ROCm 6.4 and 7.2) declare `atomicAdd` for ints, "
             "floats and doubles only, so the converted call stops the build at `no matching "
             "function for call to 'atomicAdd'`. The address's type is known to the compiler "
             "only; hipport sees it where the call casts it (`reinterpret_cast<half2*>(p)`, "
             "`(__half2*)p`).",
             "For `__half2` on memory allocated with `hipMalloc` (coarse-grained), ROCm's "
             "`unsafeAtomicAdd(__half2*, __half2)` (hip/hip_fp16.h) adds both halves "
             "atomically, as CUDA's does; it does not work on fine-grained or host memory. "
             "Elsewhere, and for `__half` and bfloat16, write a 32-bit compare-and-swap loop "
             "over the word that holds the value.",
             "atomicAdd(reinterpret_cast<half2*>(address), h2_val);",
             "unsafeAtomicAdd(reinterpret_cast<__half2*>(address), h2_val);  "
             "// hipMalloc'd memory"),
         work=Work.BREAKS_BUILD),
    Code("HP417", "group-shuffle-of-class-type",
         "Cooperative-groups shuffle of a class-type value (`tile.shfl_xor(uint4, ...)`, "
         "`tile.shfl_down(double2, ...)`, a struct): HIP's take integers and "
         "floating-point values only.", Severity.ERROR, _explain(
             "CUDA's `thread_block_tile` and `coalesced_group` shuffles move any trivially "
             "copyable type, word by word. HIP's `static_assert` that the value is an integer "
             "or a floating-point type (\"Neither an integer or float type.\", HIP 5.2 and "
             "ROCm 6.4 alike), so a 16-byte vector or a struct does not compile; overloads of "
             "the free `__shfl*` functions cannot get past that assertion. hipport reports "
             "the calls whose value it knows to be such a type: a CUDA vector type, a struct, "
             "class or union the file defines, or a `make_<vector>(...)` value.",
             "Shuffle the members one by one (the same lane arithmetic for each gives the "
             "same result), or copy the value into 4-byte words with `memcpy` and shuffle "
             "those.",
             "uint4 v = in[i];\nv = tile.shfl_xor(v, 1);",
             "uint4 v = in[i];\nv.x = tile.shfl_xor(v.x, 1);\nv.y = tile.shfl_xor(v.y, 1);\n"
             "v.z = tile.shfl_xor(v.z, 1);\nv.w = tile.shfl_xor(v.w, 1);"),
         work=Work.BREAKS_BUILD),
    Code("HP420", "inline-ptx",
         "Inline assembly (`asm`/`asm volatile`): PTX does not run on AMD GPUs.",
         Severity.WARNING, _explain(
             "PTX is NVIDIA's virtual instruction set; hipcc compiles for AMDGPU and "
             "rejects or miscompiles PTX strings. Reported in device code (`__global__`, "
             "`__device__`) and wherever the assembly is spelled as PTX (`mov.u32`, "
             "`%%laneid`, `.reg`), macro bodies included (`#define LANE(x) asm(...)`: "
             "the build stops where the macro is expanded; the finding is at its "
             "definition); a host function's own assembly (x86 `rdtsc`, `cpuid`) is the "
             "host compiler's and builds as it did.",
             "Replace the statement with a HIP intrinsic or plain C++, or keep it under "
             "`#if defined(__CUDA_ARCH__)` with a portable `#else` branch (hipcc does "
             "not define `__CUDA_ARCH__`).",
             'unsigned lane;\nasm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));',
             "unsigned lane = __lane_id();"),
         work=Work.BREAKS_BUILD),
    Code("HP501", "texture-reference",
         "Texture or surface reference (`texture<T, dim>`): removed from CUDA 12, "
         "deprecated in HIP.", Severity.WARNING, _explain(
             "Texture and surface references are module-scope objects bound with "
             "`cudaBindTexture*`. CUDA 12 removed them; HIP keeps a deprecated "
             "implementation that newer ROCm releases drop.",
             "Create a texture object (`cudaCreateTextureObject`, then "
             "`hipCreateTextureObject`) and pass it to the kernel.",
             "texture<float, 1, cudaReadModeElementType> tex;\n"
             "__global__ void k(float* o) { o[0] = tex1Dfetch(tex, 0); }",
             "__global__ void k(hipTextureObject_t tex, float* o) {\n"
             "  o[0] = tex1Dfetch<float>(tex, 0);\n}"),
         work=Work.REVIEW),
    Code("HP502", "device-side-launch",
         "Kernel launched from device code (dynamic parallelism): not supported by HIP.",
         Severity.ERROR, _explain(
             "CUDA dynamic parallelism launches kernels (or device graphs) from a "
             "kernel: a `<<<...>>>` launch, any `cudaLaunch*` call, `cudaGraphLaunch`, "
             "`cudaGetParameterBuffer` or `cudaDeviceSynchronize` in a `__global__` or "
             "`__device__` function. HIP has no device-side launch; the same calls in host "
             "code are ordinary launches.",
             "Move the launch to the host (split the kernel at that point), or turn the "
             "child work into a loop inside the parent kernel.",
             "__global__ void parent(int* d) { child<<<1, 64>>>(d); }",
             "// host\nparent<<<g, b>>>(d);\nchild<<<1, 64>>>(d);"),
         work=Work.BREAKS_BUILD),
    Code("HP503", "device-property-field",
         "`cudaDeviceProp` field missing from `hipDeviceProp_t`, spelled differently, "
         "or meaning something else on AMD.", Severity.WARNING, _explain(
             "`hipDeviceProp_t` lacks many `cudaDeviceProp` fields (ROCm 5.2 and 5.7; 6.4 "
             "has most of them, not the NUMA, MPS and PCI-id ones: the finding names the "
             "target, `--rocm-version`), spells "
             "`sharedMemPerMultiprocessor` as `maxSharedMemoryPerMultiProcessor`, and "
             "its `major`/`minor` give the GCN/CDNA architecture, not a compute "
             "capability, so `prop.major >= 7` tests mean nothing.",
             "Rename where HIP has the field (a *safe* fix), query "
             "`hipDeviceGetAttribute` for the rest, and test features (e.g. "
             "`gcnArchName`) rather than version numbers.",
             "size_t smem = prop.sharedMemPerMultiprocessor;\n"
             "bool tensor = prop.major >= 7;",
             "size_t smem = prop.maxSharedMemoryPerMultiProcessor;\n"
             "bool matrix = strncmp(prop.gcnArchName, \"gfx90a\", 6) == 0;"),
         work=Work.REVIEW),
    Code("HP504", "launch-bounds-min-blocks",
         "`__launch_bounds__` with a minimum-blocks argument, which HIP reads as waves "
         "per execution unit.", Severity.WARNING, _explain(
             "CUDA's second argument is the minimum number of resident *blocks per "
             "multiprocessor*. HIP passes it on as the minimum *waves per execution "
             "unit* (`amdgpu_waves_per_eu`), a different occupancy request that can "
             "force register spills.",
             "Drop the second argument (the *unsafe* fix) or compute waves per EU: "
             "`minBlocks * maxThreads / (warpSize * 4)` for a 4-SIMD compute unit.",
             "__global__ void __launch_bounds__(256, 2) k(float* p);",
             "__global__ void __launch_bounds__(256) k(float* p);"),
         work=Work.REVIEW),
    Code("HP505", "device-clock-rate",
         "`clock()`/`clock64()` in device code: the counter rate differs on AMD.",
         Severity.INFO, _explain(
             "`clock64()` counts shader cycles on NVIDIA; on AMD it reads a counter "
             "whose rate is neither `clockRate` nor constant across GPUs, so cycle "
             "counts converted to time, or timeouts in cycles, are wrong.",
             "Measure time with `wall_clock64()` and "
             "`hipDeviceGetAttribute(&hz, hipDeviceAttributeWallClockRate, dev)` (kHz), "
             "and keep `clock64()` only for relative comparisons.",
             "long long t0 = clock64(); work(); cycles[i] = clock64() - t0;",
             "long long t0 = wall_clock64(); work(); ticks[i] = wall_clock64() - t0;"),
         work=Work.REVIEW),
    Code("HP506", "managed-memory-hint",
         "Unified-memory allocation or hint whose effect depends on XNACK on AMD.",
         Severity.INFO, _explain(
             "Managed memory migrates on demand on AMD only with XNACK enabled "
             "(`HSA_XNACK=1` on GPUs that support it, e.g. MI200/MI300). Without it, "
             "managed allocations behave like pinned host memory and "
             "`hipMemAdvise`/`hipMemPrefetchAsync` hints do little or fail.",
             "Check the performance assumptions; prefer explicit `hipMalloc` + copies "
             "for hot data, and document the `HSA_XNACK` requirement.",
             "cudaMallocManaged(&p, n);\ncudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, 0);",
             "hipMallocManaged(&p, n);  // needs HSA_XNACK=1 to migrate on demand\n"
             "hipMemAdvise(p, n, hipMemAdviseSetReadMostly, 0);"),
         work=Work.REVIEW),
    Code("HP507", "cooperative-groups-gap",
         "Cooperative-groups feature missing from HIP (collectives, async copies, "
         "partitions).", Severity.WARNING, _explain(
             "HIP's cooperative groups (ROCm 5.2, 5.7 and 6.4 alike) provide groups, "
             "`tiled_partition` and `sync`, but not `cg::reduce`, "
             "`cg::inclusive_scan`/`exclusive_scan`, `cg::memcpy_async`/`wait` or "
             "`labeled_partition`; `binary_partition` only from ROCm 6.4, and only with "
             "`HIP_ENABLE_WARP_SYNC_BUILTINS` defined.",
             "Write the collective with the tile's `shfl_down`/`shfl_xor` members, and "
             "asynchronous copies as plain loads and a barrier.",
             "int s = cg::reduce(tile, v, cg::plus<int>());",
             "for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);\n"
             "int s = v;"),
         work=Work.BREAKS_BUILD),
    Code("HP508", "graph-feature",
         "CUDA graph instantiation flag ROCm does not implement.", Severity.WARNING, _explain(
             "`hipGraphInstantiateWithFlags` implements only "
             "`hipGraphInstantiateFlagAutoFreeOnLaunch`; device launch, node priorities "
             "and upload-on-instantiate are missing before ROCm 5.7 and not acted on "
             "after.",
             "Drop the flag and upload or prioritise explicitly where needed.",
             "cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagUseNodePriority);",
             "hipGraphInstantiateWithFlags(&exec, g, 0);"),
         work=Work.REVIEW),
    Code("HP509", "default-stream-semantics",
         "Per-thread or legacy default stream, whose meaning depends on HIP compile "
         "options.", Severity.INFO, _explain(
             "HIP's null stream is the legacy blocking stream. `hipStreamPerThread` "
             "exists (ROCm 4.5+), but code built with CUDA's `--default-stream "
             "per-thread` relies on stream 0 meaning the per-thread stream, which hipcc "
             "does only with `-fgpu-default-stream=per-thread`; `hipStreamLegacy` needs "
             "ROCm 6.2.",
             "Pass an explicit stream, or add `-fgpu-default-stream=per-thread` to the "
             "HIP build when the CUDA build used per-thread default streams.",
             "kernel<<<g, b, 0, cudaStreamPerThread>>>(p);",
             "hipStream_t s; hipStreamCreate(&s);\nkernel<<<g, b, 0, s>>>(p);"),
         work=Work.REVIEW),
    Code("HP510", "mixed-type-min-max",
         "`min`/`max` in device code with integer arguments of different types: HIP "
         "compares them as `double`.", Severity.WARNING, _explain(
             "CUDA declares `min`/`max` for every mix of `int`, `unsigned`, `long`, "
             "`unsigned long`, `long long` and `unsigned long long`, comparing as C++ "
             "would (`min(unsigned, int)` is an unsigned comparison). HIP declares only "
             "`T min(T, T)`, `int min(int, int)` and the `float`/`double` ones, so a mix "
             "compiles (HIP 5.2 and ROCm 6.4) to `double min(double, double)`: a signed, "
             "floating-point comparison, inexact above 2^53 and slow.",
             "Cast one argument so both have the type CUDA compares in (the unsafe fix "
             "does it where both declarations are in the function), or call "
             "`umin`/`llmin`/... explicitly.",
             "unsigned i = threadIdx.x; int n = count;\nunsigned last = min(i, n);",
             "unsigned i = threadIdx.x; int n = count;\nunsigned last = min(i, (unsigned int)n);"),
         work=Work.REVIEW),
    Code("HP511", "cxx-only-hip-header-in-c",
         "A C file includes a CUDA header whose HIP counterpart compiles only as C++.",
         Severity.WARNING, _explain(
             "Most CUDA library headers are C headers, but some of their HIP counterparts "
             "are not: `hiprand/hiprand.h` (rocRAND's `rocrand.h` needs `__half`), "
             "`hipfft/hipfftXt.h` (`<cstddef>`), rocThrust and hipCUB. A `.c` file that "
             "includes one fails to compile with hipcc's C compiler on both HIP 5.2 and "
             "ROCm 6.4.",
             "Compile the file as C++ (rename it `.cpp`, or set `LANGUAGE CXX`/`HIP` on "
             "it in CMake) and fix what C++ rejects (casts from `void *`), or move the "
             "library calls into a C++ file with a C interface.",
             "/* sample.c */\n#include <curand.h>",
             "/* sample.cpp (compiled as C++) */\n#include <hiprand/hiprand.h>"),
         work=Work.BREAKS_BUILD),
    Code("HP512", "case-without-hip-value",
         "A `case` label whose CUDA enumerator has no HIP value on the target, or the HIP "
         "value of a label above it: removed, with the statements only it reaches.",
         Severity.WARNING, _explain(
             "Error-string helpers list every status of a CUDA library, including ones its "
             "HIP counterpart does not have (`CUFFT_NVRTC_FAILURE`, `CUFFT_MISSING_DEPENDENCY`, "
             "`CUSOLVER_STATUS_INVALID_LICENSE`; `CUSOLVER_STATUS_ZERO_PIVOT` before ROCm "
             "6.4), or two CUDA statuses HIP folds into one "
             "(`CUSOLVER_STATUS_IRS_INTERNAL_ERROR` is `HIPSOLVER_STATUS_INTERNAL_ERROR`). "
             "Kept, the label is an undeclared name or a duplicate case value: the helper, "
             "and every program including it, does not compile. The HIP library never "
             "returns a value it does not declare, so the label is dead code on AMD.",
             "Nothing, usually: the *safe* fix removes the label, and its statements when "
             "nothing else reaches them (when the case above falls through into them, they "
             "stay, joined to that case). For a single source that also builds with CUDA, "
             "keep the label under `#if !defined(__HIP_PLATFORM_AMD__)` instead.",
             "case CUFFT_INTERNAL_ERROR:\n    return \"CUFFT_INTERNAL_ERROR\";\n"
             "case CUFFT_NVRTC_FAILURE:\n    return \"CUFFT_NVRTC_FAILURE\";",
             "case HIPFFT_INTERNAL_ERROR:\n    return \"CUFFT_INTERNAL_ERROR\";"),
         work=Work.REVIEW),
    Code("HP513", "conflicting-hip-headers",
         "A file includes two CUDA headers whose HIP counterparts cannot be included in one "
         "translation unit on the target.", Severity.WARNING, _explain(
             "ROCm 7.2's `hip/hip_fp4.h` and `hip/hip_fp6.h` (what `cuda_fp4.h` and "
             "`cuda_fp6.h` become for a 7.2 target) both define `internal::half_to_f16`, "
             "`half2_to_f16x2`, `hipbf16_to_bf16` and `hipbf162_to_bf16x2`, with no guard: "
             "a unit that includes both does not compile (\"redefinition of "
             "'half_to_f16'\"). It is a bug of those ROCm headers, not of the converted code.",
             "Split the unit: keep the FP4 code and the FP6 code in separate source files "
             "(each including one of the headers), joined by functions declared in a header "
             "of your own that includes neither.",
             "#include <cuda_fp4.h>\n#include <cuda_fp6.h>",
             "/* fp4_part.cpp */\n#include <hip/hip_fp4.h>\n"
             "/* fp6_part.cpp */\n#include <hip/hip_fp6.h>"),
         work=Work.BREAKS_BUILD),
)

# The hazards whose findings can carry a fix (all others only report).
_FIXABLE = {"HP401": Fixable.UNSAFE, "HP402": Fixable.UNSAFE, "HP404": Fixable.UNSAFE,
            "HP405": Fixable.UNSAFE,
            "HP503": Fixable.SAFE, "HP504": Fixable.UNSAFE, "HP510": Fixable.UNSAFE,
            "HP512": Fixable.SAFE}
# Changes made by default that a person must confirm (`convert --strict` fails).
_CONFIRM = frozenset({"HP411"})
HAZARDS_CODES = tuple(replace(c, category=Category.HAZARD,
                              fixable=_FIXABLE.get(c.code, Fixable.NEVER),
                              confirm=c.code in _CONFIRM) for c in _HAZARDS)
