// fft_filter.cu - batched FFT low-pass filter with cuFFT.
//
// Each of BATCH signals is a slow sine plus a fast sine. We transform with
// cufftExecC2C(CUFFT_FORWARD), zero every bin above the cutoff (and fold the
// 1/N normalisation into the same complex multiply), transform back with
// CUFFT_INVERSE and check that only the slow sine is left.

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <cuComplex.h>
#include <cufft.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err = (call);                                             \
        if (err != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define CUFFT_CHECK(call)                                                     \
    do {                                                                      \
        cufftResult res = (call);                                             \
        if (res != CUFFT_SUCCESS) {                                           \
            fprintf(stderr, "%s:%d: cuFFT error %d\n", __FILE__, __LINE__,    \
                    (int)res);                                                \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

static const float kPi = 3.14159265358979f;

// Multiplies every bin by a real gain: 1/n inside the pass band, 0 outside.
__global__ void lowPass(cufftComplex* spec, int n, int batch, int cutoff)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n * batch) return;

    const int bin = idx % n;
    const int freq = (bin <= n / 2) ? bin : n - bin;   // |frequency|
    const float gain = (freq <= cutoff) ? 1.0f / n : 0.0f;
    spec[idx] = cuCmulf(spec[idx], make_cuFloatComplex(gain, 0.0f));
}

int main()
{
    const int n = 1024;       // samples per signal
    const int batch = 8;      // number of signals
    const int cutoff = 50;    // highest frequency bin kept
    const size_t count = (size_t)n * batch;

    std::vector<cufftComplex> h_sig(count), h_out(count);
    std::vector<float> expected(count);
    for (int b = 0; b < batch; ++b) {
        const int slow = 3 + b;          // well below the cutoff
        const int fast = 200 + 10 * b;   // well above it
        for (int t = 0; t < n; ++t) {
            const float low = std::sin(2.0f * kPi * slow * t / n);
            const float high = 0.5f * std::sin(2.0f * kPi * fast * t / n);
            h_sig[(size_t)b * n + t] = make_cuFloatComplex(low + high, 0.0f);
            expected[(size_t)b * n + t] = low;
        }
    }

    cufftComplex* d_data = nullptr;
    CUDA_CHECK(cudaMalloc(&d_data, sizeof(cufftComplex) * count));
    CUDA_CHECK(cudaMemcpy(d_data, h_sig.data(), sizeof(cufftComplex) * count,
                          cudaMemcpyHostToDevice));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    cufftHandle plan;
    CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
    CUFFT_CHECK(cufftSetStream(plan, stream));

    // In-place forward transform, filter, in-place inverse transform.
    CUFFT_CHECK(cufftExecC2C(plan, d_data, d_data, CUFFT_FORWARD));
    const int threads = 256;
    const int blocks = (int)((count + threads - 1) / threads);
    lowPass<<<blocks, threads, 0, stream>>>(d_data, n, batch, cutoff);
    CUDA_CHECK(cudaGetLastError());
    CUFFT_CHECK(cufftExecC2C(plan, d_data, d_data, CUFFT_INVERSE));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    CUDA_CHECK(cudaMemcpy(h_out.data(), d_data, sizeof(cufftComplex) * count,
                          cudaMemcpyDeviceToHost));

    float maxErr = 0.0f;
    for (size_t i = 0; i < count; ++i) {
        const float re = cuCrealf(h_out[i]);
        const float im = cuCimagf(h_out[i]);
        maxErr = std::fmax(maxErr, std::fabs(re - expected[i]));
        maxErr = std::fmax(maxErr, std::fabs(im));
    }
    printf("low-pass over %d signals of %d samples: max error %.3e\n",
           batch, n, maxErr);

    CUFFT_CHECK(cufftDestroy(plan));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_data));

    if (maxErr > 1e-3f) {
        printf("FAILED (cufftExecC2C round trip too inaccurate)\n");
        return EXIT_FAILURE;
    }
    printf("PASSED\n");
    return EXIT_SUCCESS;
}
