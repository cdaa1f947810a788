#include <cuda_runtime.h>
#include <curand.h>

int draw(float *out, double *dout, unsigned int *bits, size_t n, cudaStream_t stream) {
  curandGenerator_t gen;
  curandStatus_t s = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  if (s != CURAND_STATUS_SUCCESS) return 1;
  curandSetStream(gen, stream);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandSetGeneratorOffset(gen, 0ULL);
  curandGenerateUniform(gen, out, n);
  curandGenerateNormal(gen, out, n, 0.0f, 1.0f);
  curandGenerateLogNormal(gen, out, n, 0.0f, 1.0f);
  curandGenerateUniformDouble(gen, dout, n);
  curandGenerateNormalDouble(gen, dout, n, 0.0, 1.0);
  curandGenerate(gen, bits, n);
  curandGeneratePoisson(gen, bits, n, 4.0);
  curandDestroyGenerator(gen);
  curandGenerator_t quasi;
  if (curandCreateGenerator(&quasi, CURAND_RNG_QUASI_SOBOL32) != CURAND_STATUS_SUCCESS) return 1;
  curandSetQuasiRandomGeneratorDimensions(quasi, 2);
  curandGenerateUniform(quasi, out, n);
  return curandDestroyGenerator(quasi) == CURAND_STATUS_SUCCESS ? 0 : 1;
}

int main() {
  float *out;
  double *dout;
  unsigned int *bits;
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMalloc(&dout, 1024 * sizeof(double));
  cudaMalloc(&bits, 1024 * sizeof(unsigned int));
  return draw(out, dout, bits, 1024, 0);
}
