[assembly: CLSCompliant(false)]
