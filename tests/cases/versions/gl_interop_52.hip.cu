// hipport-flags: --rocm-version=5.2
// HIP 5.2 has no hip/hip_gl_interop.h: its OpenGL interop API is in hip_runtime_api.h.
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

hipError_t map_buffer(GLuint vbo, float** ptr, size_t* bytes) {
  hipGraphicsResource_t resource;
  hipError_t err = hipGraphicsGLRegisterBuffer(&resource, vbo, hipGraphicsRegisterFlagsNone);
  if (err != hipSuccess) return err;
  err = hipGraphicsMapResources(1, &resource, 0);
  if (err != hipSuccess) return err;
  return hipGraphicsResourceGetMappedPointer((void**)ptr, bytes, resource);
}
