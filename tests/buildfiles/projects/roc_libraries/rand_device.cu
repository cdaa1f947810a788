#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void sample(curandState *states, float *uniform, float *normal, unsigned int *bits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  uniform[id] = curand_uniform(&local);
  normal[id] = curand_normal(&local);
  bits[id] = curand(&local);
  states[id] = local;
}

__global__ void philox(curandStatePhilox4_32_10_t *states, float4 *out, double *d) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(42ULL, id, 0, &states[id]);
  out[id] = curand_uniform4(&states[id]);
  d[id] = curand_uniform_double(&states[id]) + curand_log_normal(&states[id], 0.0f, 1.0f);
}

__global__ void mrg(curandStateMRG32k3a *states, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(7ULL, id, 0, &states[id]);
  out[id] = curand_normal(&states[id]) + (float)curand_poisson(&states[id], 3.0);
}

void launch(curandState *states, float *u, float *n, unsigned int *b) {
  setup<<<4, 64>>>(states, 99ULL);
  sample<<<4, 64>>>(states, u, n, b);
}

int main() {
  curandState *states;
  float *u, *n;
  unsigned int *b;
  cudaMalloc(&states, 256 * sizeof(curandState));
  cudaMalloc(&u, 256 * sizeof(float));
  cudaMalloc(&n, 256 * sizeof(float));
  cudaMalloc(&b, 256 * sizeof(unsigned int));
  launch(states, u, n, b);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
