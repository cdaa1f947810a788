// hipport-flags: --rocm-version=6.4
// ROCm 6.4 declares the OpenGL interop API in hip/hip_gl_interop.h only.
#include <hip/hip_runtime.h>
#include <hip/hip_gl_interop.h>

hipError_t map_buffer(GLuint vbo, float** ptr, size_t* bytes) {
  hipGraphicsResource_t resource;
  hipError_t err = hipGraphicsGLRegisterBuffer(&resource, vbo, hipGraphicsRegisterFlagsNone);
  if (err != hipSuccess) return err;
  err = hipGraphicsMapResources(1, &resource, 0);
  if (err != hipSuccess) return err;
  return hipGraphicsResourceGetMappedPointer((void**)ptr, bytes, resource);
}
