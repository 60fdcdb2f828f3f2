// Production build, no telemetry, no image optimisation: the page alone is measured.
export default { poweredByHeader: false, images: { unoptimized: true } };
