// hipport-flags: --rocm-version=6.4
// ROCm 6.4 declares the OpenGL interop API in hip/hip_gl_interop.h only.
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

cudaError_t map_buffer(GLuint vbo, float** ptr, size_t* bytes) {
  cudaGraphicsResource_t resource;
  cudaError_t err = cudaGraphicsGLRegisterBuffer(&resource, vbo, cudaGraphicsRegisterFlagsNone);
  if (err != cudaSuccess) return err;
  err = cudaGraphicsMapResources(1, &resource, 0);
  if (err != cudaSuccess) return err;
  return cudaGraphicsResourceGetMappedPointer((void**)ptr, bytes, resource);
}
